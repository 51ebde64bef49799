/* registry: the rulesets this build of the platform can play, by the name a
 * card set's game.yaml gives in its `ruleset:` key. The one file of the
 * platform that names rulesets (ctest layers checks it): a new ruleset is
 * one line here and its own folder. The first is the default, for a
 * game.yaml that names none (every card set written before rulesets had
 * names is The Flow of History's). */
#include <string.h>

#include "foh/ruleset.h"

extern const foh_ruleset foh_ruleset_flow;

static const foh_ruleset *const rulesets[] = {
    &foh_ruleset_flow,
};

int foh_ruleset_count(void) { return (int)(sizeof rulesets / sizeof rulesets[0]); }

const foh_ruleset *foh_ruleset_at(int i) { return i >= 0 && i < foh_ruleset_count() ? rulesets[i] : NULL; }

const foh_ruleset *foh_ruleset_find(const char *name)
{
    for (int i = 0; name && i < foh_ruleset_count(); i++)
        if (strcmp(rulesets[i]->name, name) == 0)
            return rulesets[i];
    return NULL;
}
