/* The connection guard (conns.h). */
#include "server/conns.h"

#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>

#include "server/common.h"

enum { TICKS_PER_SECOND = 4 }; /* how often the guard looks: deadlines are kept within 250 ms */

hr_status srv_conns_init(srv_conns *t, double idle_seconds, double read_seconds) {
  *t = (srv_conns){.idle_seconds = idle_seconds, .read_seconds = read_seconds};
  return srv_sync_init(&t->mu, &t->cv);
}

/* Whether the peer of a socket has hung up (closed or reset its side). */
static bool peer_gone(int fd) {
  struct pollfd p = {.fd = fd, .events = POLLRDHUP};
  return poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

/* One look at every connection. Call with the lock. */
static void sweep(srv_conns *t, double now) {
  for (srv_conn *c = t->head; c; c = c->next) {
    if (c->phase == SRV_CONN_RUNNING) {
      if (!atomic_load(&c->gone) && peer_gone(c->fd)) {
        atomic_store(&c->gone, true);
        t->hung_up++;
      }
    } else if (!c->closing && c->deadline > 0 && now > c->deadline) {
      shutdown(c->fd, SHUT_RDWR);
      c->closing = true;
      t->timed_out++;
    }
  }
}

static void *guard_main(void *arg) {
  srv_conns *t = arg;
  pthread_mutex_lock(&t->mu);
  while (!t->stop) {
    sweep(t, srv_now());
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += 1000000000L / TICKS_PER_SECOND;
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&t->cv, &t->mu, &ts);
  }
  pthread_mutex_unlock(&t->mu);
  return NULL;
}

hr_status srv_conns_start(srv_conns *t) {
  t->stop = false;
  if (pthread_create(&t->thread, NULL, guard_main, t) != 0)
    return hr_error(HR_INTERNAL, "cannot start the connection guard thread");
  t->running = true;
  return NULL;
}

void srv_conns_stop(srv_conns *t) {
  if (!t->running) return;
  pthread_mutex_lock(&t->mu);
  t->stop = true;
  pthread_cond_broadcast(&t->cv);
  pthread_mutex_unlock(&t->mu);
  pthread_join(t->thread, NULL);
  t->running = false;
}

void srv_conns_destroy(srv_conns *t) {
  srv_conns_stop(t);
  while (t->head) {
    srv_conn *c = t->head;
    t->head = c->next;
    free(c);
  }
  pthread_cond_destroy(&t->cv);
  pthread_mutex_destroy(&t->mu);
}

srv_conn *srv_conn_open(srv_conns *t, int fd) {
  srv_conn *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->fd = fd;
  atomic_init(&c->gone, false);
  pthread_mutex_lock(&t->mu);
  c->phase = SRV_CONN_IDLE;
  c->deadline = srv_now() + t->idle_seconds;
  c->next = t->head;
  if (t->head) t->head->prev = c;
  t->head = c;
  t->count++;
  pthread_mutex_unlock(&t->mu);
  return c;
}

void srv_conn_close(srv_conns *t, srv_conn *c) {
  if (!c) return;
  pthread_mutex_lock(&t->mu);
  if (c->prev)
    c->prev->next = c->next;
  else
    t->head = c->next;
  if (c->next) c->next->prev = c->prev;
  t->count--;
  pthread_mutex_unlock(&t->mu);
  free(c);
}

void srv_conn_enter(srv_conns *t, srv_conn *c, srv_conn_phase phase, double seconds) {
  if (!c) return;
  pthread_mutex_lock(&t->mu);
  c->phase = phase;
  c->deadline = seconds > 0 ? srv_now() + seconds : 0;
  if (phase == SRV_CONN_RUNNING) atomic_store(&c->gone, false);
  pthread_mutex_unlock(&t->mu);
}

void srv_conns_counts(srv_conns *t, int *open, uint64_t *timed_out, uint64_t *hung_up) {
  pthread_mutex_lock(&t->mu);
  *open = t->count;
  *timed_out = t->timed_out;
  *hung_up = t->hung_up;
  pthread_mutex_unlock(&t->mu);
}
