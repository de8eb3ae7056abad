/* A lock for the few short sections demos' record callbacks share when a
 * frame is recorded on several threads (descriptor-set allocations from
 * one pool): a spin on an atomic flag, C11 only, so the demos need no
 * threads library on any platform. Zero-initialized: DEMO_LOCK_INIT. */
#ifndef DEMO_LOCK_H
#define DEMO_LOCK_H

#include <stdatomic.h>

typedef struct demo_lock {
    atomic_flag held;
} demo_lock;

#define DEMO_LOCK_INIT { ATOMIC_FLAG_INIT }

static inline void demo_lock_take(demo_lock *l)
{
    while (atomic_flag_test_and_set_explicit(&l->held, memory_order_acquire))
        ;
}

static inline void demo_lock_give(demo_lock *l)
{
    atomic_flag_clear_explicit(&l->held, memory_order_release);
}

#endif
