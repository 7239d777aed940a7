/* GnuTLS sessions for the gRPC port (tls.h). */
#include "server/tls.h"

#include <gnutls/gnutls.h>
#include <stdlib.h>
#include <string.h>

struct srv_tls {
  gnutls_certificate_credentials_t cred;
  gnutls_priority_t priority;
  bool client_verify;
};

struct srv_tls_conn {
  gnutls_session_t session;
  bool client_verify;
};

/* A PEM text as GnuTLS takes it. */
static gnutls_datum_t datum(const char *pem) { return (gnutls_datum_t){(unsigned char *)pem, (unsigned)strlen(pem)}; }

hr_status srv_tls_create(const srv_ssl_config *ssl, srv_tls **out) {
  *out = NULL;
  srv_tls *t = calloc(1, sizeof *t);
  if (!t) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  t->client_verify = ssl->client_verify;
  gnutls_datum_t cert = datum(ssl->server_cert), key = datum(ssl->server_key);
  int rc = gnutls_certificate_allocate_credentials(&t->cred);
  const char *what = "the credentials";
  if (rc >= 0) {
    what = "server_key and server_cert";
    rc = gnutls_certificate_set_x509_key_mem(t->cred, &cert, &key, GNUTLS_X509_FMT_PEM);
  }
  if (rc >= 0 && ssl->custom_ca) {
    gnutls_datum_t ca = datum(ssl->custom_ca);
    what = "custom_ca";
    rc = gnutls_certificate_set_x509_trust_mem(t->cred, &ca, GNUTLS_X509_FMT_PEM);
    if (rc == 0) rc = GNUTLS_E_NO_CERTIFICATE_FOUND; /* it held no certificate */
  }
  if (rc >= 0) {
    what = "the TLS priorities";
    rc = gnutls_priority_init(&t->priority, NULL, NULL);
  }
  if (rc < 0) {
    hr_status s = hr_error(HR_INVALID_ARGUMENT, "the SSL config's %s: %s", what, gnutls_strerror(rc));
    srv_tls_free(t);
    return s;
  }
  *out = t;
  return NULL;
}

void srv_tls_free(srv_tls *t) {
  if (!t) return;
  if (t->priority) gnutls_priority_deinit(t->priority);
  if (t->cred) gnutls_certificate_free_credentials(t->cred);
  free(t);
}

hr_status srv_tls_conn_create(const srv_tls *t, int fd, srv_tls_conn **out) {
  *out = NULL;
  srv_tls_conn *c = calloc(1, sizeof *c);
  if (!c) return hr_error(HR_OUT_OF_MEMORY, "out of memory");
  c->client_verify = t->client_verify;
  static const gnutls_datum_t h2 = {(unsigned char *)"h2", 2};
  int rc = gnutls_init(&c->session, GNUTLS_SERVER | GNUTLS_NONBLOCK);
  if (rc >= 0) rc = gnutls_priority_set(c->session, t->priority);
  if (rc >= 0) rc = gnutls_credentials_set(c->session, GNUTLS_CRD_CERTIFICATE, t->cred);
  if (rc >= 0) rc = gnutls_alpn_set_protocols(c->session, &h2, 1, 0);
  if (rc < 0) {
    if (c->session) gnutls_deinit(c->session);
    free(c);
    return hr_error(HR_INTERNAL, "cannot start a TLS session: %s", gnutls_strerror(rc));
  }
  if (t->client_verify) gnutls_certificate_server_set_request(c->session, GNUTLS_CERT_REQUIRE);
  gnutls_transport_set_int(c->session, fd);
  *out = c;
  return NULL;
}

void srv_tls_conn_free(srv_tls_conn *c) {
  if (!c) return;
  gnutls_deinit(c->session);
  free(c);
}

int srv_tls_handshake(srv_tls_conn *c) {
  int rc = gnutls_handshake(c->session);
  if (rc == GNUTLS_E_AGAIN || rc == GNUTLS_E_INTERRUPTED) return 0;
  if (rc < 0) return -1;
  if (!c->client_verify) return 1;
  unsigned status = 0;
  return gnutls_certificate_verify_peers2(c->session, &status) == GNUTLS_E_SUCCESS && status == 0 ? 1 : -1;
}

bool srv_tls_wants_write(const srv_tls_conn *c) { return gnutls_record_get_direction(c->session) == 1; }

/* A GnuTLS record result as srv_tls_send/recv report it. */
static ssize_t result(ssize_t n) {
  if (n >= 0) return n;
  return n == GNUTLS_E_AGAIN || n == GNUTLS_E_INTERRUPTED ? SRV_TLS_AGAIN : SRV_TLS_FAILED;
}

ssize_t srv_tls_send(srv_tls_conn *c, const void *data, size_t len) { return result(gnutls_record_send(c->session, data, len)); }

ssize_t srv_tls_recv(srv_tls_conn *c, void *buf, size_t len) { return result(gnutls_record_recv(c->session, buf, len)); }
