/* serve_conn: timing foh serve's connections (serve_conn.h). */
#include "serve/serve_conn.h"

#include <stdlib.h>
#include <string.h>

#include "serve/serve_views.h"

static int conn_began(const struct mg_connection *c, void **data)
{
    (void)c;
    double *began = malloc(sizeof *began);
    if (began)
        *began = serve_now();
    *data = began; /* NULL if out of memory: its slow headers get CivetWeb's 400 */
    return 0;
}

static void conn_closed(const struct mg_connection *c)
{
    free(mg_get_user_connection_data(c));
    mg_set_user_connection_data(c, NULL);
}

static int conn_error(struct mg_connection *c, int status, const char *msg)
{
    const double *began = mg_get_user_connection_data(c);
    /* CivetWeb says "Malformed message" for headers cut short: by its
     * timeout, or by bad bytes or a closed connection, told apart by time. */
    if (status != 400 || !began || strcmp(msg, "Malformed message") ||
        serve_now() - *began < SERVE_HEADER_MS / 1000.0)
        return 1; /* CivetWeb's own answer */
    static const char body[] = "{\"error\":\"the request's headers did not arrive in time\",\"status\":408}";
    mg_printf(c,
              "HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\n"
              "Content-Length: %zu\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n%s",
              sizeof body - 1, body);
    return 0;
}

void foh_serve_conn_callbacks(struct mg_callbacks *callbacks)
{
    callbacks->init_connection = conn_began;
    callbacks->connection_close = conn_closed;
    callbacks->http_error = conn_error;
}

int foh_serve_conn_read(struct mg_connection *c, char *buf, size_t length, size_t *got)
{
    double start = serve_now(), wait = SERVE_HEADER_MS / 1000.0;
    *got = 0;
    while (*got < length) {
        /* One byte a call: mg_read returns it as soon as it comes, or 0
         * after SERVE_HEADER_MS without one, so no call outlasts the
         * deadline. Bytes that came with the headers cost no system call. */
        if (serve_now() - start + wait > SERVE_BODY_SECONDS)
            return 408;
        int n = mg_read(c, buf + *got, 1);
        if (n < 0)
            return 400;
        *got += (size_t)n;
    }
    return 200;
}
