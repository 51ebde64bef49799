/* flow: The Flow of History as a ruleset of the platform (foh/ruleset.h).
 * These are its implementations of the interface's methods, listed in its
 * method table (ruleset.c) and called directly inside the ruleset; the
 * platform reaches them only through the table (the foh_game_* functions of
 * foh/game.h dispatch on a game's ruleset). Each does what the matching
 * foh_* function of foh/game.h, foh/cardset.h or foh/position.h documents,
 * for The Flow of History. Internal to the ruleset. */
#ifndef FLOW_H
#define FLOW_H

#include <stdint.h>

#include "foh/cardset.h"
#include "foh/game.h"
#include "foh/ruleset.h"

/* The name a card set's game.yaml gives in `ruleset:` (the method table,
 * ruleset.c, joins these rules and their Lua binding). */
#define FLOW_RULESET_NAME "flow-of-history"

/* The card effects and hooks, a port (effects.h) the loader is given. */
typedef struct flow_effects flow_effects;

/* The card set of DIRS and VARIANTS (foh_cardset_check), its scripts
 * compiled and checked through FX (fx->check_cardset). */
foh_cardset *flow_cardset_check(const char *const *dirs, int ndirs, const char *const *variants, int nvariants,
                                const char *const *search, int nsearch, foh_problem_fn report, void *ctx,
                                const flow_effects *fx, foh_error *err);
void flow_cardset_free(foh_cardset *cs);
foh_engine *flow_engine_new_limited(const foh_cardset *cs, const foh_script_limits *limits, foh_error *err);
void flow_engine_free(foh_engine *eng);

foh_game *flow_game_new(foh_engine *eng, const foh_options *opt, foh_error *err);
foh_game *flow_game_clone(const foh_game *g);
void flow_game_copy(foh_game *dst, const foh_game *src);
void flow_game_free(foh_game *g);
int flow_game_players(const foh_game *g);
int flow_game_to_act(const foh_game *g);
int flow_game_is_over(const foh_game *g);
int flow_game_turn(const foh_game *g);
int flow_game_turn_limit(const foh_game *g);
int flow_game_in_bonus(const foh_game *g);
int flow_game_legal_actions(foh_game *g, foh_action *out, int max, foh_error *err);
int flow_game_legal_grouped(foh_game *g, foh_action *out, int max, int *nlegal, foh_error *err);
foh_status flow_game_check(foh_game *g, const foh_action *a, foh_error *err);
foh_status flow_game_apply(foh_game *g, const foh_action *a, foh_error *err);
const foh_choice *flow_game_choice(const foh_game *g);
void flow_game_describe_action(const foh_game *g, const foh_action *a, char *buf, size_t len);
void flow_game_set_log(foh_game *g, foh_log_fn fn, void *ud);
uint64_t flow_game_digest(const foh_game *g);
/* Everything hidden in The Flow of History (the unseen deck order, the
 * generator) is hidden from every player alike: VIEWER changes nothing. */
void flow_game_determinize(foh_game *g, uint64_t seed);

#endif
