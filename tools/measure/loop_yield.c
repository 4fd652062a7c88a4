/* loop_yield.so: a failed pthread_mutex_trylock gives the core away (sched_yield) before it returns EBUSY.
 *
 * Why (validation/testbed/README.md, "Gloo's event loop on a shared core"): Gloo's TCP event loop
 * (gloo/transport/tcp/pair.cc, Pair::handleEvents) only try-locks a pair's mutex and, when a worker thread holds it,
 * returns to epoll_wait, which reports the same ready socket at once: the loop spins. On a host with a core per
 * thread the holder runs on another core and releases the lock within microseconds; on the emulated cluster, where a
 * rank's threads share one core (launch --pin) or several ranks share each core, the spinning loop keeps the holder
 * off the core until the scheduler's next tick (4 ms at HZ = 250), and calls then take whole ticks. Yielding on the
 * failed try-lock lets the holder run at once, as a core of its own would.
 *
 * Loaded into the ranks by `tools/measure/launch --loop-yield` (LD_PRELOAD); compiled by launch itself:
 *   cc -O2 -shared -fPIC -o loop_yield.so loop_yield.c -ldl
 * sgdsim_loop_yield_count counts the yields (read by the tests). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>

unsigned long sgdsim_loop_yield_count;

typedef int (*trylock_fn)(pthread_mutex_t *);

int pthread_mutex_trylock(pthread_mutex_t *mutex) {
    static trylock_fn real;
    trylock_fn fn = __atomic_load_n(&real, __ATOMIC_ACQUIRE);
    if (!fn) {
        fn = (trylock_fn)dlsym(RTLD_NEXT, "pthread_mutex_trylock");
        if (!fn) return EINVAL; /* no libc below us: cannot happen in a dynamically linked process */
        __atomic_store_n(&real, fn, __ATOMIC_RELEASE);
    }
    int rv = fn(mutex);
    if (rv == EBUSY) {
        __atomic_fetch_add(&sgdsim_loop_yield_count, 1, __ATOMIC_RELAXED);
        sched_yield();
    }
    return rv;
}
