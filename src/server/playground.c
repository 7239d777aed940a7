/* The playground page (playground.h). */
#include "server/playground.h"

/* Generated at build time from playground.html (CMakeLists.txt, cmake/embed_file.cmake). */
extern const unsigned char hr_playground_html[];
extern const size_t hr_playground_html_len;

void srv_playground_page(const char **data, size_t *len) {
  *data = (const char *)hr_playground_html;
  *len = hr_playground_html_len;
}
