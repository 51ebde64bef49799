/* serve_guard: cross-site checks of foh serve's requests (serve_guard.h). */
#include "serve/serve_guard.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

static const char *header(const struct mg_request_info *ri, const char *name)
{
    for (int i = 0; i < ri->num_headers; i++)
        if (!strcasecmp(ri->http_headers[i].name, name))
            return ri->http_headers[i].value;
    return NULL;
}

int foh_serve_guard_changes(const struct mg_request_info *ri)
{
    const char *m = ri->request_method ? ri->request_method : "";
    return strcmp(m, "GET") && strcmp(m, "HEAD") && strcmp(m, "OPTIONS");
}

/* Whether media type TYPE (a Content-Type header) is application/json,
 * parameters (charset) aside. */
static int is_json(const char *type)
{
    if (!type)
        return 0;
    while (*type == ' ' || *type == '\t')
        type++;
    size_t n = strlen("application/json");
    if (strncasecmp(type, "application/json", n))
        return 0;
    type += n;
    while (*type == ' ' || *type == '\t')
        type++;
    return *type == '\0' || *type == ';';
}

/* The length of the site of URL: its scheme://host[:port], the path left
 * out (0 if URL has no scheme://). */
static size_t site_len(const char *url)
{
    const char *sep = strstr(url, "://");
    if (!sep || sep == url)
        return 0;
    for (const char *p = url; p < sep; p++)
        if (!isalpha((unsigned char)*p))
            return 0;
    return (size_t)(sep + 3 - url) + strcspn(sep + 3, "/?#");
}

/* Whether site A (N bytes) is SCHEME://HOST. */
static int same_site(const char *a, size_t n, const char *scheme, const char *host)
{
    size_t ns = strlen(scheme);
    return host && n == ns + 3 + strlen(host) && !strncasecmp(a, scheme, ns) && !strncmp(a + ns, "://", 3) &&
           !strncasecmp(a + ns + 3, host, strlen(host));
}

int foh_serve_guard_check(const cli_options *o, const struct mg_request_info *ri, char *why, size_t whylen)
{
    /* A bodiless DELETE needs no type: a page elsewhere cannot send one
     * without the preflight the server never grants. */
    int body = !strcmp(ri->request_method, "POST") || ri->content_length > 0;
    if (body && !is_json(header(ri, "Content-Type"))) {
        snprintf(why, whylen, "a request that changes something sends its body as Content-Type: application/json");
        return 415;
    }
    const char *from = header(ri, "Origin"), *what = "Origin";
    if (!from) {
        from = header(ri, "Referer");
        what = "Referer";
    }
    if (!from)
        return 200; /* not sent by a browser's page (or one that tells nothing): the checks above hold */
    size_t n = site_len(from);
    /* https too: behind a TLS proxy that passes the Host on */
    int ok = n > 0 && (same_site(from, n, "http", header(ri, "Host")) || same_site(from, n, "https", header(ri, "Host")));
    for (int i = 0; !ok && n > 0 && i < o->norigins; i++) {
        size_t m = site_len(o->origins[i]);
        ok = m == n && !strncasecmp(from, o->origins[i], n);
    }
    if (!ok)
        snprintf(why, whylen, "the request comes from a page of another site (its %s: %.200s); --origin allows one",
                 what, from);
    return ok ? 200 : 403;
}
