/* Linux calls Swift cannot make directly: GNU extensions its Glibc module leaves out
 * (pipe2, posix_spawn's closefrom/chdir/setsid), and raw system calls (syscall() is variadic)
 * for Landlock and seccomp. Each returns 0 (or a descriptor) on success and -errno on failure. */
#ifndef TRAILHEAD_SYSTEM_H
#define TRAILHEAD_SYSTEM_H

#include <spawn.h>
#include <stdint.h>

/* pipe2(fds, O_CLOEXEC): both ends close-on-exec from the start, with no window in which
 * another thread's spawn could inherit them. */
int th_pipe_cloexec(int fds[2]);

/* posix_spawn_file_actions_addclosefrom_np (glibc >= 2.34): the child closes every
 * descriptor from `lowest` up. -ENOSYS when this C library lacks it. */
int th_spawn_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

/* posix_spawn_file_actions_addchdir_np (glibc >= 2.29). -ENOSYS when missing. */
int th_spawn_addchdir(posix_spawn_file_actions_t *actions, const char *directory);

/* POSIX_SPAWN_SETSID (glibc >= 2.26), a GNU flag the Swift module does not import. */
short th_spawn_setsid_flag(void);

/* memfd_create(name, MFD_CLOEXEC): an anonymous file, for handing data to a child on a descriptor. */
int th_memfd(const char *name);

/* Landlock (Linux >= 5.13). The ABI version, or -errno (-ENOSYS: no Landlock in this kernel,
 * -EOPNOTSUPP: built in but not enabled at boot). */
int th_landlock_abi(void);

/* A ruleset handling these access rights (files, TCP ports, scopes): returns its descriptor.
 * `handled_net` and `scoped` must be 0 below ABI 4 and 6. */
int th_landlock_create_ruleset(uint64_t handled_fs, uint64_t handled_net, uint64_t scoped, int abi);

/* Allows `access` beneath the file or directory at `path` (symbolic links followed). */
int th_landlock_allow_path(int ruleset, const char *path, uint64_t access);

/* no_new_privs, then enforces the ruleset on the calling thread and its future children. */
int th_landlock_restrict_self(int ruleset);

/* A seccomp filter on the calling thread and its future children: socket() fails with
 * EACCES and io_uring_setup() with ENOSYS (io_uring could open sockets behind the filter's
 * back); system calls of another architecture (int 0x80, x32) fail with EPERM. */
int th_seccomp_deny_sockets(void);

/* Whether this kernel takes seccomp filters (1), or not (0). */
int th_seccomp_available(void);

/* The number of threads of this process (from /proc/self/stat), or -errno. Landlock and
 * seccomp confine only the calling thread and the threads it starts later. */
int th_thread_count(void);

/* Routes `signo` to a pipe: a handler writes one byte per signal to its write end (both ends
 * close-on-exec, the write end non-blocking). Returns the read end, or -errno. A process keeps
 * one such pipe per signal; calling it again returns the same read end. */
int th_signal_pipe(int signo);

/* Puts `signo` back to its default disposition (the pipe stays for a later th_signal_pipe). */
int th_signal_default(int signo);


#endif
