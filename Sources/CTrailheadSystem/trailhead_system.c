#define _GNU_SOURCE
#include "trailhead_system.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef __NR_landlock_create_ruleset
#define __NR_landlock_create_ruleset 444
#define __NR_landlock_add_rule 445
#define __NR_landlock_restrict_self 446
#endif
#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif

int th_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC) == 0 ? 0 : -errno; }

int th_memfd(const char *name) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    return fd < 0 ? -errno : fd;
}

int th_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
    return -posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return -ENOSYS;
#endif
}

int th_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *directory) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))
    return -posix_spawn_file_actions_addchdir_np(actions, directory);
#else
    (void)actions;
    (void)directory;
    return -ENOSYS;
#endif
}

short th_spawn_setsid_flag(void) {
#ifdef POSIX_SPAWN_SETSID
    return POSIX_SPAWN_SETSID;
#else
    return 0x80;
#endif
}

/* struct landlock_ruleset_attr grew with the ABI (net in 4, scoped in 6); the kernel takes the
 * size the caller passes, so one struct serves every version. */
struct th_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

struct th_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

#define TH_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define TH_LANDLOCK_RULE_PATH_BENEATH 1

int th_landlock_abi(void) {
    long abi = syscall(__NR_landlock_create_ruleset, NULL, 0, TH_LANDLOCK_CREATE_RULESET_VERSION);
    return abi < 0 ? -errno : (int)abi;
}

int th_landlock_create_ruleset(uint64_t handled_fs, uint64_t handled_net, uint64_t scoped, int abi) {
    struct th_ruleset_attr attr = {handled_fs, handled_net, scoped};
    size_t size = abi >= 6 ? sizeof attr : abi >= 4 ? offsetof(struct th_ruleset_attr, scoped)
                                                    : offsetof(struct th_ruleset_attr, handled_access_net);
    long fd = syscall(__NR_landlock_create_ruleset, &attr, size, 0);
    return fd < 0 ? -errno : (int)fd;
}

int th_landlock_allow_path(int ruleset, const char *path, uint64_t access) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -errno;
    struct th_path_beneath_attr rule = {access, fd};
    long result = syscall(__NR_landlock_add_rule, ruleset, TH_LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    int saved = errno;
    close(fd);
    return result < 0 ? -saved : 0;
}

int th_landlock_restrict_self(int ruleset) {
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -errno;
    return syscall(__NR_landlock_restrict_self, ruleset, 0) < 0 ? -errno : 0;
}

#if defined(__x86_64__)
#define TH_AUDIT_ARCH 0xC000003EU /* AUDIT_ARCH_X86_64 */
#define TH_X32_BIT 0x40000000U
#elif defined(__aarch64__)
#define TH_AUDIT_ARCH 0xC00000B7U /* AUDIT_ARCH_AARCH64 */
#define TH_X32_BIT 0
#endif

int th_seccomp_deny_sockets(void) {
#ifdef TH_AUDIT_ARCH
    struct sock_filter program[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, TH_AUDIT_ARCH, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if TH_X32_BIT
        BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, TH_X32_BIT, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
#endif
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog filter = {(unsigned short)(sizeof program / sizeof program[0]), program};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return -errno;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) == 0 ? 0 : -errno;
#else
    return -ENOSYS;
#endif
}

int th_seccomp_available(void) {
#ifdef TH_AUDIT_ARCH
    /* PR_GET_SECCOMP fails with EINVAL when the kernel has no seccomp at all. */
    return prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0 ? 1 : 0;
#else
    return 0;
#endif
}

int th_thread_count(void) {
    FILE *file = fopen("/proc/self/stat", "re");
    if (!file) return -errno;
    char buffer[1024];
    size_t count = fread(buffer, 1, sizeof buffer - 1, file);
    fclose(file);
    buffer[count] = 0;
    /* Field 20, counted after the command name's closing parenthesis (the name may hold spaces). */
    char *cursor = strrchr(buffer, ')');
    if (!cursor) return -EINVAL;
    int field = 2;
    for (cursor++; *cursor && field < 20; cursor++) {
        if (*cursor == ' ') field++;
    }
    return field == 20 ? atoi(cursor) : -EINVAL;
}

/* Write ends by signal number; written once before the handler is installed. */
static int th_signal_pipes[65][2];
static int th_signal_pipes_ready[65];

static void th_signal_to_pipe(int signo) {
    int saved = errno;
    char byte = (char)signo;
    ssize_t ignored = write(th_signal_pipes[signo][1], &byte, 1);
    (void)ignored;
    errno = saved;
}

int th_signal_pipe(int signo) {
    if (signo <= 0 || signo >= 65) return -EINVAL;
    if (!th_signal_pipes_ready[signo]) {
        if (pipe2(th_signal_pipes[signo], O_CLOEXEC) != 0) return -errno;
        fcntl(th_signal_pipes[signo][1], F_SETFL, O_NONBLOCK);
        th_signal_pipes_ready[signo] = 1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = th_signal_to_pipe;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(signo, &action, NULL) != 0) return -errno;
    return th_signal_pipes[signo][0];
}

int th_signal_default(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    return sigaction(signo, &action, NULL) == 0 ? 0 : -errno;
}

