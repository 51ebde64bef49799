/* Setting up an exact position: for tests, scenario files and puzzles.
 * These calls edit a game that is not inside an action; each keeps the
 * token total (players + under Market cards + Supply + Reserve) equal to
 * the tokens in the box by taking from or returning to the Reserve; a
 * Reserve that would go negative counts as substituted tokens. */
#ifndef FOH_POSITION_H
#define FOH_POSITION_H

#include "foh/api.h"

#include "foh/game.h"

/* Empty position: every card in the box, no Market, no deck, players with
 * no tokens, empty Supply, every token in the Reserve; CURRENT to act. A
 * pending choice (a variant's set-up) is abandoned. */
FOH_API foh_status foh_position_clear(foh_game *g, int current, foh_error *err);

/* Move CARD to ZONE: the deck (on top), the Market (at the end), PLAYER's
 * Nation (on top of its pile; a single-card type replaces the old card),
 * removed from the game, or the box. FOH_ERR_USAGE for a bad argument. */
FOH_API foh_status foh_position_put(foh_game *g, int card, foh_zone zone, int player, foh_error *err);

/* Set PLAYER's tokens, or the Supply when PLAYER is -1 (tokens >= 0). */
FOH_API foh_status foh_position_set_tokens(foh_game *g, int player, int tokens, foh_error *err);

/* PLAYER invests TOKENS (>= 1) in Market card CARD (taken from the Reserve).
 * PLAYER FOH_NEUTRAL_INVESTOR + k places neutral marker k (TOKENS >= 0). */
FOH_API foh_status foh_position_invest(foh_game *g, int player, int card, int tokens, foh_error *err);

/* Put every card still in the box into the deck, under the cards already
 * there, as the real deck is built (rulebook "Game Setup"): the fixed bottom
 * cards, then each deck age shuffled by SEED, bottom first. */
FOH_API foh_status foh_position_deal_rest(foh_game *g, uint64_t seed, foh_error *err);

/* Mark CARD's Instant/Attack effect as already used (or not). */
FOH_API foh_status foh_position_set_fired(foh_game *g, int card, int fired, foh_error *err);

/* Player to act next (0-based). */
FOH_API foh_status foh_position_set_current(foh_game *g, int player, foh_error *err);

/* A 64-bit digest of everything that determines the game's future: the
 * position, the action in progress and its answers, and the RNG. Equal
 * games have equal digests. */
FOH_API uint64_t foh_game_digest(const foh_game *g);

#endif
