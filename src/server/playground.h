/* The playground: the page `GET /` serves (src/server/playground.html, docs/generation.md), plain
 * HTML and JavaScript with no external resources. The build embeds the file in the binary
 * (cmake/embed_file.cmake), so that the server needs no file at run time. */
#ifndef HLORUN_SERVER_PLAYGROUND_H
#define HLORUN_SERVER_PLAYGROUND_H

#include <stddef.h>

/* The page (UTF-8 HTML, to be served as text/html; charset=utf-8): `*data` points to `*len` bytes
 * of static storage, followed by a NUL. */
void srv_playground_page(const char **data, size_t *len);

#endif
