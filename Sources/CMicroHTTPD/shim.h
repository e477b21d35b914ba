#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* MHD_start_daemon and MHD_get_daemon_info are variadic, which Swift cannot call: typed wrappers. */

/* One daemon: an internal polling thread pool on epoll, suspend/resume (for handlers that run on
   threads of their own and for event streams), and every limit the server relies on. */
static inline struct MHD_Daemon *trailhead_mhd_start(
    const struct sockaddr_in *address, unsigned int threads, unsigned int connection_limit,
    unsigned int per_ip_limit, unsigned int timeout_seconds, size_t memory_limit,
    MHD_AccessHandlerCallback access, void *cls, MHD_RequestCompletedCallback completed)
{
    return MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME,
        ntohs(address->sin_port), NULL, NULL, access, cls,
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)address,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, connection_limit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
        MHD_OPTION_NOTIFY_COMPLETED, completed, cls,
        MHD_OPTION_STRICT_FOR_CLIENT, (int)1,
        MHD_OPTION_END);
}

/* The port the daemon listens on (the one the kernel picked when asked for 0). */
static inline int trailhead_mhd_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? (int)info->port : 0;
}

static inline uint64_t trailhead_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
