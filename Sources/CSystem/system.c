#include "CSystem.h"
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <unistd.h>

int csys_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return accept4(fd, addr, len, flags);
}

int csys_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int csys_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event ev;
    ev.events = events;
    ev.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &ev);
}

int csys_epoll_wait(int epfd, uint32_t *events, uint64_t *data, int max, int timeout_ms) {
    struct epoll_event evs[256];
    if (max > 256) max = 256;
    int n = epoll_wait(epfd, evs, max, timeout_ms);
    for (int i = 0; i < n; i++) {
        events[i] = evs[i].events;
        data[i] = evs[i].data.u64;
    }
    return n;
}

int csys_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

int csys_inotify_watch_dir(const char *path, int *watch_out) {
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) return -1;
    int wd = inotify_add_watch(fd, path, IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_CREATE);
    if (wd < 0) { close(fd); return -1; }
    if (watch_out) *watch_out = wd;
    return fd;
}

void csys_set_thread_name(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

// Linux keeps a nice value per thread, named by its kernel id (`gettid`, not in Swift's Glibc).
int csys_lower_thread_priority(int nice) { return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice); }

// Swift has no thread-local storage of its own; stored plus one so that zero means none.
static _Thread_local int loop_index_plus_one;

int csys_loop_index(void) { return loop_index_plus_one - 1; }

void csys_set_loop_index(int index) { loop_index_plus_one = index < 0 ? 0 : index + 1; }
