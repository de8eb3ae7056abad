/* C11 threads over POSIX threads, for the ThreadSanitizer build
 * (scripts/tsan.sh, VKG_TSAN). glibc's thrd_create, mtx_* and cnd_* call
 * its pthread functions internally, past ThreadSanitizer's interceptors,
 * and gcc 12's runtime intercepts no C11 thread function: a thread made
 * by thrd_create crashes in its first instrumented function, and a lock
 * taken by mtx_lock would order nothing for the sanitizer. Defined in the
 * program, these take the place of glibc's for the library (rg_workers)
 * and the tests, and do what glibc's do through the pthread functions the
 * sanitizer sees. glibc's C11 types are its pthread types (thrd_t is a
 * pthread_t; mtx_t and cnd_t have pthread_mutex_t's and pthread_cond_t's
 * size and alignment). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <threads.h>

_Static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t), "glibc's mtx_t is a pthread_mutex_t");
_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "glibc's cnd_t is a pthread_cond_t");
_Static_assert(sizeof(thrd_t) == sizeof(pthread_t), "glibc's thrd_t is a pthread_t");

static int result_of(int err)
{
    return err == 0 ? thrd_success : err == ENOMEM ? thrd_nomem : err == EBUSY ? thrd_busy
           : err == ETIMEDOUT ? thrd_timedout : thrd_error;
}

typedef struct start {
    thrd_start_t func;
    void *arg;
} start;

static void *run_start(void *p)
{
    start s = *(start *)p;
    free(p);
    return (void *)(intptr_t)s.func(s.arg);
}

int thrd_create(thrd_t *thr, thrd_start_t func, void *arg)
{
    start *s = malloc(sizeof *s);
    if (!s)
        return thrd_nomem;
    *s = (start){ func, arg };
    int err = pthread_create((pthread_t *)thr, NULL, run_start, s);
    if (err)
        free(s);
    return result_of(err);
}

int thrd_join(thrd_t thr, int *res)
{
    void *r = NULL;
    int err = pthread_join((pthread_t)thr, &r);
    if (!err && res)
        *res = (int)(intptr_t)r;
    return result_of(err);
}

int mtx_init(mtx_t *m, int type)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    if (type & mtx_recursive)
        pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
    int err = pthread_mutex_init((pthread_mutex_t *)m, &a);
    pthread_mutexattr_destroy(&a);
    return result_of(err);
}

int mtx_lock(mtx_t *m) { return result_of(pthread_mutex_lock((pthread_mutex_t *)m)); }
int mtx_trylock(mtx_t *m) { return result_of(pthread_mutex_trylock((pthread_mutex_t *)m)); }
int mtx_unlock(mtx_t *m) { return result_of(pthread_mutex_unlock((pthread_mutex_t *)m)); }
void mtx_destroy(mtx_t *m) { pthread_mutex_destroy((pthread_mutex_t *)m); }

int cnd_init(cnd_t *c) { return result_of(pthread_cond_init((pthread_cond_t *)c, NULL)); }
int cnd_signal(cnd_t *c) { return result_of(pthread_cond_signal((pthread_cond_t *)c)); }
int cnd_broadcast(cnd_t *c) { return result_of(pthread_cond_broadcast((pthread_cond_t *)c)); }
int cnd_wait(cnd_t *c, mtx_t *m) { return result_of(pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m)); }
void cnd_destroy(cnd_t *c) { pthread_cond_destroy((pthread_cond_t *)c); }
