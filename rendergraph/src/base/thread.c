/* thread.h's layer: POSIX threads, or Win32 threads where _WIN32 is
 * defined (MinGW-w64, MSVC, clang-cl). */
#include "base/thread.h"

#include <stdint.h>

#if defined(_WIN32)

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <process.h>

_Static_assert(sizeof(SRWLOCK) == sizeof(void *), "an SRWLOCK is one pointer");
_Static_assert(sizeof(CONDITION_VARIABLE) == sizeof(void *), "a CONDITION_VARIABLE is one pointer");

#define SRW(m) ((PSRWLOCK)&(m)->srw)
#define CV(c) ((PCONDITION_VARIABLE)&(c)->cv)

bool rg__mutex_init(rg__mutex *m)
{
    InitializeSRWLock(SRW(m));
    return true;
}

void rg__mutex_destroy(rg__mutex *m)
{
    (void)m; /* an SRWLOCK holds nothing to release */
}

void rg__mutex_lock(rg__mutex *m)
{
    AcquireSRWLockExclusive(SRW(m));
}

void rg__mutex_unlock(rg__mutex *m)
{
    ReleaseSRWLockExclusive(SRW(m));
}

bool rg__cond_init(rg__cond *c)
{
    InitializeConditionVariable(CV(c));
    return true;
}

void rg__cond_destroy(rg__cond *c)
{
    (void)c; /* nor does a CONDITION_VARIABLE */
}

void rg__cond_wait(rg__cond *c, rg__mutex *m)
{
    SleepConditionVariableSRW(CV(c), SRW(m), INFINITE, 0);
}

void rg__cond_signal(rg__cond *c)
{
    WakeConditionVariable(CV(c));
}

void rg__cond_broadcast(rg__cond *c)
{
    WakeAllConditionVariable(CV(c));
}

static unsigned __stdcall thread_main(void *p)
{
    const rg__thread *t = p;
    t->fn(t->arg);
    return 0;
}

bool rg__thread_create(rg__thread *t, void (*fn)(void *arg), void *arg)
{
    t->fn = fn;
    t->arg = arg;
    uintptr_t h = _beginthreadex(NULL, 0, thread_main, t, 0, NULL);
    if (!h)
        return false;
    t->handle = (void *)h;
    return true;
}

void rg__thread_join(rg__thread t)
{
    WaitForSingleObject((HANDLE)t.handle, INFINITE);
    CloseHandle((HANDLE)t.handle);
}

#else

bool rg__mutex_init(rg__mutex *m)
{
    return pthread_mutex_init(&m->m, NULL) == 0;
}

void rg__mutex_destroy(rg__mutex *m)
{
    pthread_mutex_destroy(&m->m);
}

void rg__mutex_lock(rg__mutex *m)
{
    pthread_mutex_lock(&m->m);
}

void rg__mutex_unlock(rg__mutex *m)
{
    pthread_mutex_unlock(&m->m);
}

bool rg__cond_init(rg__cond *c)
{
    return pthread_cond_init(&c->c, NULL) == 0;
}

void rg__cond_destroy(rg__cond *c)
{
    pthread_cond_destroy(&c->c);
}

void rg__cond_wait(rg__cond *c, rg__mutex *m)
{
    pthread_cond_wait(&c->c, &m->m);
}

void rg__cond_signal(rg__cond *c)
{
    pthread_cond_signal(&c->c);
}

void rg__cond_broadcast(rg__cond *c)
{
    pthread_cond_broadcast(&c->c);
}

static void *thread_main(void *p)
{
    const rg__thread *t = p;
    t->fn(t->arg);
    return NULL;
}

bool rg__thread_create(rg__thread *t, void (*fn)(void *arg), void *arg)
{
    t->fn = fn;
    t->arg = arg;
    return pthread_create(&t->t, NULL, thread_main, t) == 0;
}

void rg__thread_join(rg__thread t)
{
    pthread_join(t.t, NULL);
}

#endif
