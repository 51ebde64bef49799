/* registry: the rulesets this build of the platform can play, by the name a
 * card set's game.yaml gives in its `ruleset:` key. The rulesets are listed
 * by the build (foh_add_ruleset in CMakeLists.txt: The Flow of History's
 * folder, and the toy game of tests/toy) into the generated rulesets.h, so
 * that this file, the one of the platform that reaches rulesets, names none
 * itself: adding a ruleset changes only its own folder. The first listed
 * is the default, for a game.yaml that names none (every card set written
 * before rulesets had names is The Flow of History's). */
#include <string.h>

#include "foh/ruleset.h"

#define FOH_RULESET(symbol) extern const foh_ruleset symbol;
#include "rulesets.h"
#undef FOH_RULESET

#define FOH_RULESET(symbol) &symbol,
static const foh_ruleset *const rulesets[] = {
#include "rulesets.h"
};
#undef FOH_RULESET

int foh_ruleset_count(void) { return (int)(sizeof rulesets / sizeof rulesets[0]); }

const foh_ruleset *foh_ruleset_at(int i) { return i >= 0 && i < foh_ruleset_count() ? rulesets[i] : NULL; }

const foh_ruleset *foh_ruleset_find(const char *name)
{
    for (int i = 0; name && i < foh_ruleset_count(); i++)
        if (rulesets[i]->version == FOH_RULESET_VERSION && strcmp(rulesets[i]->name, name) == 0)
            return rulesets[i];
    return NULL;
}
