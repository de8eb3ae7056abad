/* Threads for the library's own use (rg_workers, the graph's views lock),
 * behind one small layer: POSIX threads on every POSIX system (Linux,
 * macOS, Android), Win32 threads on Windows. Nothing here is public.
 *
 *   rg__mutex    a plain lock (pthread_mutex_t; an SRWLOCK, taken
 *                exclusively)
 *   rg__cond     a condition variable waited on with an rg__mutex
 *                (pthread_cond_t; a CONDITION_VARIABLE)
 *   rg__thread   a thread started on a function and joined (pthread_t; a
 *                handle from _beginthreadex, so the C runtime's per-thread
 *                state is set up)
 *   RG__THREAD_LOCAL  a storage class for per-thread statics
 *                (_Thread_local; __declspec(thread) with MSVC)
 *
 * The Windows types are stored as opaque pointers (an SRWLOCK and a
 * CONDITION_VARIABLE are one pointer each; thread.c checks the sizes), so
 * no file but thread.c includes <windows.h>. The init calls return false
 * when the system is out of resources; lock, unlock, wait and signal
 * cannot fail on a valid, initialized object.
 */
#ifndef RG_THREAD_H
#define RG_THREAD_H

#include <stdbool.h>

#if defined(_MSC_VER) && !defined(__clang__)
#define RG__THREAD_LOCAL __declspec(thread)
#else
#define RG__THREAD_LOCAL _Thread_local
#endif

#if defined(_WIN32)
typedef struct rg__mutex {
    void *srw;
} rg__mutex;
typedef struct rg__cond {
    void *cv;
} rg__cond;
typedef struct rg__thread {
    void *handle;
    void (*fn)(void *arg);            /* what the thread runs (rg__thread_create) */
    void *arg;
} rg__thread;
#else
#include <pthread.h>
typedef struct rg__mutex {
    pthread_mutex_t m;
} rg__mutex;
typedef struct rg__cond {
    pthread_cond_t c;
} rg__cond;
typedef struct rg__thread {
    pthread_t t;
    void (*fn)(void *arg);            /* what the thread runs (rg__thread_create) */
    void *arg;
} rg__thread;
#endif

bool rg__mutex_init(rg__mutex *m);
void rg__mutex_destroy(rg__mutex *m);
void rg__mutex_lock(rg__mutex *m);
void rg__mutex_unlock(rg__mutex *m);

bool rg__cond_init(rg__cond *c);
void rg__cond_destroy(rg__cond *c);
/* Releases m, sleeps until signalled (or spuriously), takes m again:
 * callers wait in a loop over their condition. */
void rg__cond_wait(rg__cond *c, rg__mutex *m);
void rg__cond_signal(rg__cond *c);
void rg__cond_broadcast(rg__cond *c);

/* Starts fn(arg) on a new thread, which reads them from *t: t stays where
 * it is until rg__thread_join (nothing is allocated); false if none could
 * be started. */
bool rg__thread_create(rg__thread *t, void (*fn)(void *arg), void *arg);
/* Waits for the thread to return and releases it. */
void rg__thread_join(rg__thread t);

#endif
