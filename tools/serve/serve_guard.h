/* serve_guard: what `foh serve` asks of a request that changes something
 * (docs/serve.md, "Safety"), so that a page on another site cannot make or
 * play tables through its visitors' browsers: a JSON body (a form or a
 * no-cors fetch cannot send Content-Type: application/json without the
 * preflight the server never grants), and an Origin or Referer, when the
 * browser sends one, naming the server's own site or one of --origin. */
#ifndef FOH_SERVE_GUARD_H
#define FOH_SERVE_GUARD_H

#include <civetweb.h>
#include <stddef.h>

#include "common/cli.h"

/* Whether the request RI's method changes state (anything but GET, HEAD
 * and OPTIONS). */
int foh_serve_guard_changes(const struct mg_request_info *ri);

/* Whether a state-changing request RI may go on: an HTTP status, 200, or
 * 415 (a POST or a body whose Content-Type is not application/json) or 403 (its Origin, or
 * without one its Referer, names a site other than the one of its Host
 * header or of O's --origin list; "null" is another site), with WHY. */
int foh_serve_guard_check(const cli_options *o, const struct mg_request_info *ri, char *why, size_t whylen);

#endif
