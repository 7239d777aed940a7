/* TLS for the gRPC port (GnuTLS, as libmicrohttpd uses for REST): the server's credentials from
 * an SSLConfig (server.h), and per connection a non-blocking session whose handshake offers ALPN
 * "h2" and, with client_verify, requires a client certificate that custom_ca signs. */
#ifndef HLORUN_SERVER_TLS_H
#define HLORUN_SERVER_TLS_H

#include <stdbool.h>
#include <sys/types.h>

#include "hlorun/hlorun.h"
#include "server/server.h"

typedef struct srv_tls srv_tls;           /* credentials, shared by every connection */
typedef struct srv_tls_conn srv_tls_conn; /* one connection's session */

/* Loads the key, certificate chain and (when set) the client authority; INVALID_ARGUMENT naming
 * what GnuTLS refused. */
hr_status srv_tls_create(const srv_ssl_config *ssl, srv_tls **out);
void srv_tls_free(srv_tls *t);

/* A server session over the non-blocking socket fd (not owned). */
hr_status srv_tls_conn_create(const srv_tls *t, int fd, srv_tls_conn **out);
void srv_tls_conn_free(srv_tls_conn *c);

/* Advances the handshake: 1 once done (and the client verified when asked), 0 while it waits for
 * the socket, -1 when it failed (close the connection). */
int srv_tls_handshake(srv_tls_conn *c);
/* Whether the session waits to write (poll for POLLOUT) rather than to read. */
bool srv_tls_wants_write(const srv_tls_conn *c);

/* Record I/O: bytes moved, 0 at the end of the stream (recv), SRV_TLS_AGAIN when the socket
 * would block, SRV_TLS_FAILED on an error. */
enum { SRV_TLS_AGAIN = -2, SRV_TLS_FAILED = -1 };
ssize_t srv_tls_send(srv_tls_conn *c, const void *data, size_t len);
ssize_t srv_tls_recv(srv_tls_conn *c, void *buf, size_t len);

#endif
