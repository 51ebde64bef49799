/* serve_conn: how `foh serve` holds its connections (docs/serve.md,
 * "Limits"). CivetWeb gives each connection one of its threads until the
 * request is answered, so no request may keep one long, whatever the pace
 * of its bytes: its headers have SERVE_HEADER_MS twice over (CivetWeb's
 * request_timeout_ms, checked after each read), its body SERVE_BODY_SECONDS
 * in all, read a byte at a time past what came with the headers (CivetWeb's
 * mg_read waits for every byte asked). Either is answered 408. */
#ifndef FOH_SERVE_CONN_H
#define FOH_SERVE_CONN_H

#include <civetweb.h>
#include <stddef.h>

#define SERVE_HEADER_MS 2000  /* CivetWeb's request_timeout_ms: the longest wait for a byte */
#define SERVE_BODY_SECONDS 10 /* a body not in by then is answered 408 */
#define SERVE_THREADS "256"   /* connections served at once: idle or slow ones hold one each, briefly */

/* CivetWeb's callbacks that time connections: init_connection notes when
 * one began, connection_close forgets it, and http_error answers 408 (JSON,
 * as every reply) to headers that did not arrive in time, where CivetWeb
 * would say 400. Set them in CALLBACKS. */
void foh_serve_conn_callbacks(struct mg_callbacks *callbacks);

/* Read LENGTH bytes (at most the size of BUF) of the request's body on C
 * into BUF, within SERVE_BODY_SECONDS of the call. An HTTP status: 200,
 * 408 (too slow), or 400 (the connection closed first); *GOT the bytes
 * read. */
int foh_serve_conn_read(struct mg_connection *c, char *buf, size_t length, size_t *got);

#endif
