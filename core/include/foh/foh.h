/* The Flow of History rules engine: everything public in one include. */
#ifndef FOH_FOH_H
#define FOH_FOH_H

#include "foh/bot.h"
#include "foh/cardset.h"
#include "foh/error.h"
#include "foh/file.h"
#include "foh/game.h"
#include "foh/match.h"
#include "foh/position.h"
#include "foh/yaml.h"

#endif
