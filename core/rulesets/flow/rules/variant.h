/* variant: overlays a variant (variants/NAME/variant.yaml) on a card set's
 * YAML trees before they are read: parameter overrides (`set`), cards
 * removed, added or overridden field by field (`cards`), hooks at named
 * points of the turn (`hooks`), extra Lua helpers (`scripts`), and the
 * player counts it allows (`players`). Two variants changing the same thing
 * are refused, naming both. Internal to core/. */
#ifndef FOH_VARIANT_H
#define FOH_VARIANT_H

#include "internal.h"
#include "loader.h"
#include "foh/yaml.h"

#define FOH_MAX_CLAIMS 256

/* The card entries being assembled: pointers into the card files' trees or
 * into a variant's tree (for added cards). */
typedef struct {
    size_t n;
    foh_yaml_node *node[FOH_MAX_CARDS];
} foh_variant_cards;

/* What each applied variant changed, to refuse two changing the same. */
typedef struct {
    int n;
    char what[FOH_MAX_CLAIMS][128];
    char variant[FOH_MAX_CLAIMS][FOH_NAME];
    int players_set;
    uint32_t players_mask; /* player counts every variant allows */
} foh_variant_claims;

/* Apply variant DOC to GAME (game.yaml's tree) and CARDS; record it and its
 * hooks in CS. 0 on error (ERR names the variant file, line and problem).
 * With LD in checking mode (may be NULL) each section's error (unknown
 * field, players, params, set, cards, hooks, on, actions) is reported and
 * the next section read. */
int foh_variant_apply(foh_yaml_node *doc, foh_cardset *cs, foh_yaml_node *game, foh_variant_cards *cards,
                      foh_variant_claims *claims, foh_loader *ld, foh_error *err);

/* cards: {remove, add, override} of OWNER (a variant, or a card set that
 * extends another) applied to CARDS. 0 on error. */
int foh_variant_cards_apply(foh_yaml_node *spec, const char *owner, foh_variant_cards *cards,
                            foh_variant_claims *claims, foh_error *err);

#endif
