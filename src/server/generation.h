/* Text generation over REST (docs/generation.md): `:generate` (hlorun's, JSON or Server-Sent
 * Events) and OpenAI's `/v1/completions`, over a servable's generation engine.
 *
 * A request is parsed on a worker, submitted to the engine, and answered by a stream: the engine's
 * sink formats what it gives (events, or the whole JSON answer at the end) into the stream's buffer
 * and wakes the connection; libmicrohttpd's thread reads the buffer through a content callback,
 * suspending the connection while it is empty. The stream lives until both the engine (its `done`
 * event) and libmicrohttpd (the response freed: sent, or the client gone, which cancels the
 * request so that its slot is freed at the next step) let it go; the servable is held until then. */
#ifndef HLORUN_SERVER_GENERATION_H
#define HLORUN_SERVER_GENERATION_H

#include <stdbool.h>
#include <stddef.h>

#include "server/internal.h"

struct MHD_Connection;
struct MHD_Response;

/* POST /v1/models/NAME[/versions/N | /labels/L]:generate. */
void srv_rest_generate(srv_server *s, const char *model, const srv_selector *sel, const char *body, size_t len,
                       srv_reply *r);
/* POST /v1/completions (the model named in the body). */
void srv_rest_completions(srv_server *s, const char *body, size_t len, srv_reply *r);
/* GET /hlorun/models: hlorun's list of configured models, their versions and whether they generate. */
void srv_rest_list_models(srv_server *s, srv_reply *r);

/* The response of a reply that carries a stream (libmicrohttpd's thread, in send_reply), or NULL
 * when it cannot be made (the stream is then let go). */
struct MHD_Response *srv_gen_stream_response(srv_gen_stream *st, struct MHD_Connection *c);
/* Lets a reply's stream go without answering with it (the connection failed first). */
void srv_gen_stream_abandon(srv_gen_stream *st);
/* Cancels every generation in progress (the server stopping): each stream ends, "cancelled". */
void srv_generation_cancel_all(srv_server *s);

#endif
