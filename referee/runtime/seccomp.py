"""The system calls a sandboxed bot (and its build) may make: an allow-list compiled to a seccomp BPF program by
libseccomp (through ``pyseccomp``) and handed to bubblewrap (``--seccomp FD``), which loads it just before the
sandbox's first command runs.

The list follows Docker's default profile and is stricter where a game bot needs less. What is refused, and why:

- **Channels between sandboxes.** The kernel keyring is not namespaced (``add_key``, ``keyctl``, ``request_key``);
  file locks are seen by every process that can open the file, and every sandbox can open the same read-only system
  files (``flock``; ``fcntl`` record, open-file-description and lease locks: see below); notifications of another
  process's access to a shared file (``inotify_*``, ``fanotify_*``, ``fcntl(F_NOTIFY)``).
- **Reaching other processes.** ``ptrace``, ``process_vm_readv``/``writev``, ``process_madvise``, ``pidfd_getfd``,
  ``kcmp``.
- **Kernel attack surface a bot has no use for.** ``bpf``, ``perf_event_open``, ``userfaultfd``, ``io_uring_*``,
  ``mount`` and the new mount API, ``unshare``, ``setns``, namespace flags to ``clone`` (``clone3``, whose flags a
  filter cannot read, answers ``ENOSYS`` so that the C library falls back to ``clone``), ``kexec_*``, modules,
  ``reboot``, ``swapon``, ``acct``, ``syslog``, ``quotactl``, ``personality`` changes (queries are allowed),
  ``chroot``, ``pivot_root``, setting the clock, NUMA memory policies, ``memfd_secret``, ``cachestat`` (a probe of
  what another process read lately), ``AF_VSOCK`` sockets.

A refused call fails with ``EPERM``, with two exceptions. Taking a lock (``flock``, ``F_SETLK``, ``F_SETLKW`` and
their open-file-description twins) succeeds without locking anything: build tools lock their caches and the files
they read, and the Go tool stops at a lock that fails ("operation not supported" included), while a bot's own files
are its alone, in its private /tmp. Asking about locks (``F_GETLK``, ``F_OFD_GETLK``) and leases fail with
``EOPNOTSUPP``, as on a file system without locking. A call of another architecture's ABI (32-bit calls from a
64-bit bot) kills the bot.
"""

from __future__ import annotations

import errno
import functools
import os
import tempfile
from typing import Any

REFUSED_ERRNO = errno.EPERM
"""What a refused call returns."""
LOCK_QUERY_ERRNO = errno.EOPNOTSUPP
"""What a question about locks or a lease returns: "not supported here"."""
GRANTED = 0
"""The "error" of a lock taken without effect: none, the call returns 0."""

ALLOWED = (
    # files and folders
    "access", "chdir", "chmod", "chown", "close", "close_range", "copy_file_range", "creat", "dup", "dup2", "dup3",
    "faccessat", "faccessat2", "fadvise64", "fallocate", "fchdir", "fchmod", "fchmodat", "fchmodat2", "fchown",
    "fchownat", "fdatasync", "fgetxattr", "flistxattr", "fremovexattr", "fsetxattr", "fstat", "fstatfs", "fsync",
    "ftruncate", "futimesat", "getcwd", "getdents", "getdents64", "getxattr", "lchown", "lgetxattr", "link",
    "linkat", "listxattr", "llistxattr", "lremovexattr", "lseek", "lsetxattr", "lstat", "mkdir", "mkdirat",
    "mknod", "mknodat", "name_to_handle_at", "newfstatat", "open", "openat", "openat2", "pread64", "preadv",
    "preadv2", "pwrite64", "pwritev", "pwritev2", "read", "readahead", "readlink", "readlinkat", "readv",
    "removexattr", "rename", "renameat", "renameat2", "rmdir", "sendfile", "setxattr", "splice", "stat", "statfs",
    "statx", "symlink", "symlinkat", "sync", "sync_file_range", "syncfs", "tee", "truncate", "umask", "unlink",
    "unlinkat", "utime", "utimensat", "utimes", "vmsplice", "write", "writev",
    # memory
    "brk", "madvise", "membarrier", "memfd_create", "mincore", "mlock", "mlock2", "mlockall", "mmap", "mprotect",
    "mremap", "msync", "munlock", "munlockall", "munmap", "pkey_alloc", "pkey_free", "pkey_mprotect",
    "remap_file_pages",
    # processes, threads and signals (all within the sandbox's own PID namespace)
    "arch_prctl", "capget", "capset", "execve", "execveat", "exit", "exit_group", "fork", "get_robust_list",
    "get_thread_area", "getcpu", "getegid", "geteuid", "getgid", "getgroups", "getitimer", "getpgid", "getpgrp",
    "getpid", "getppid", "getpriority", "getresgid", "getresuid", "getrlimit", "getrusage", "getsid", "gettid",
    "getuid", "ioprio_get", "ioprio_set", "kill", "map_shadow_stack", "modify_ldt", "pause", "pidfd_open",
    "pidfd_send_signal", "prctl", "prlimit64", "process_mrelease", "restart_syscall", "rseq", "rt_sigaction",
    "rt_sigpending", "rt_sigprocmask", "rt_sigqueueinfo", "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait",
    "rt_tgsigqueueinfo", "sched_get_priority_max", "sched_get_priority_min", "sched_getaffinity", "sched_getattr",
    "sched_getparam", "sched_getscheduler", "sched_rr_get_interval", "sched_setaffinity", "sched_setattr",
    "sched_setparam", "sched_setscheduler", "sched_yield", "seccomp", "set_robust_list", "set_thread_area",
    "set_tid_address", "setfsgid", "setfsuid", "setgid", "setgroups", "setitimer", "setpgid", "setpriority",
    "setregid", "setresgid", "setresuid", "setreuid", "setrlimit", "setsid", "setuid", "sigaltstack", "tgkill",
    "tkill", "vfork", "wait4", "waitid",
    # waiting, time and events
    "adjtimex", "alarm", "clock_adjtime", "clock_getres", "clock_gettime", "clock_nanosleep", "epoll_create",
    "epoll_create1", "epoll_ctl", "epoll_ctl_old", "epoll_pwait", "epoll_pwait2", "epoll_wait", "epoll_wait_old",
    "eventfd", "eventfd2", "futex", "futex_requeue", "futex_wait", "futex_waitv", "futex_wake", "gettimeofday",
    "nanosleep", "pipe", "pipe2", "poll", "ppoll", "pselect6", "select", "signalfd", "signalfd4", "time",
    "timer_create", "timer_delete", "timer_getoverrun", "timer_gettime", "timer_settime", "timerfd_create",
    "timerfd_gettime", "timerfd_settime", "times",
    # sockets (the sandbox's own network namespace) and System V / POSIX IPC (its own IPC namespace)
    "accept", "accept4", "bind", "connect", "getpeername", "getsockname", "getsockopt", "listen", "recvfrom",
    "recvmmsg", "recvmsg", "sendmmsg", "sendmsg", "sendto", "setsockopt", "shutdown", "socketpair", "mq_getsetattr",
    "mq_notify", "mq_open", "mq_timedreceive", "mq_timedsend", "mq_unlink", "msgctl", "msgget", "msgrcv", "msgsnd",
    "semctl", "semget", "semop", "semtimedop", "shmat", "shmctl", "shmdt", "shmget",
    # asynchronous I/O of the old kind (io_uring is refused)
    "io_cancel", "io_destroy", "io_getevents", "io_pgetevents", "io_setup", "io_submit",
    # the machine
    "getrandom", "ioctl", "sysinfo", "uname",
    # sandboxing oneself further
    "landlock_add_rule", "landlock_create_ruleset", "landlock_restrict_self",
)
"""Calls allowed whatever their arguments."""

NAMESPACE_FLAGS = 0x7E020000
"""``clone`` flags that make new namespaces (``CLONE_NEWNS`` … ``CLONE_NEWNET``): ``clone`` is allowed without
them."""
FCNTL_ALLOWED = (
    0, 1, 2, 3, 4,  # F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL
    8, 9, 10, 11, 15, 16, 17,  # F_SETOWN, F_GETOWN, F_SETSIG, F_GETSIG, F_SETOWN_EX, F_GETOWN_EX, F_GETOWNER_UIDS
    1030, 1031, 1032, 1033, 1034,  # F_DUPFD_CLOEXEC, F_SETPIPE_SZ, F_GETPIPE_SZ, F_ADD_SEALS, F_GET_SEALS
    1035, 1036, 1037, 1038,  # F_GET_RW_HINT, F_SET_RW_HINT, F_GET_FILE_RW_HINT, F_SET_FILE_RW_HINT
)
"""``fcntl`` commands allowed: everything but locks and notifications."""
FCNTL_LOCKS = (6, 7, 37, 38)
"""``fcntl`` commands that take or drop a lock (F_SETLK, F_SETLKW, F_OFD_SETLK, F_OFD_SETLKW): :data:`GRANTED`, like
``flock``."""
FCNTL_LOCK_QUERIES = (5, 36, 1024, 1025)
"""``fcntl`` questions about locks and leases (F_GETLK, F_OFD_GETLK, F_SETLEASE, F_GETLEASE):
:data:`LOCK_QUERY_ERRNO`. ``F_NOTIFY`` and unknown commands answer :data:`REFUSED_ERRNO`."""
PERSONALITY_QUERIES = (0, 0xFFFFFFFF)
"""``personality`` arguments allowed: ``PER_LINUX`` (what every process has) and the query."""
AF_VSOCK = 40
"""The one socket family refused (it reaches the host of a virtual machine, past the network namespace)."""


class SeccompUnavailable(RuntimeError):
    """libseccomp cannot be loaded here; the message says what to install."""


def _library() -> Any:
    try:
        import pyseccomp
    except (ImportError, RuntimeError, OSError) as exc:  # pyseccomp raises when it cannot find libseccomp.so
        raise SeccompUnavailable(f"libseccomp is missing (Debian: apt-get install libseccomp2): {exc}") from None
    return pyseccomp


@functools.cache
def program() -> bytes:
    """The compiled filter (classic BPF, as bubblewrap's ``--seccomp`` reads it), built once.

    Raises:
        SeccompUnavailable: libseccomp cannot be loaded.
    """
    seccomp = _library()
    arch = seccomp.system_arch()
    rules = seccomp.SyscallFilter(seccomp.ERRNO(REFUSED_ERRNO))
    for name in ALLOWED:
        if seccomp.resolve_syscall(arch, name) >= 0:  # a name this architecture has
            rules.add_rule(seccomp.ALLOW, name)
    for command in FCNTL_ALLOWED:
        rules.add_rule(seccomp.ALLOW, "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    for command in FCNTL_LOCKS:
        rules.add_rule(seccomp.ERRNO(GRANTED), "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    for command in FCNTL_LOCK_QUERIES:
        rules.add_rule(seccomp.ERRNO(LOCK_QUERY_ERRNO), "fcntl", seccomp.Arg(1, seccomp.EQ, command))
    rules.add_rule(seccomp.ERRNO(GRANTED), "flock")
    rules.add_rule(seccomp.ALLOW, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, NAMESPACE_FLAGS, 0))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    for persona in PERSONALITY_QUERIES:
        rules.add_rule(seccomp.ALLOW, "personality", seccomp.Arg(0, seccomp.EQ, persona))
    rules.add_rule(seccomp.ALLOW, "socket", seccomp.Arg(0, seccomp.LT, AF_VSOCK))
    rules.add_rule(seccomp.ALLOW, "socket", seccomp.Arg(0, seccomp.GT, AF_VSOCK))
    with tempfile.TemporaryFile() as compiled:
        rules.export_bpf(compiled)
        compiled.seek(0)
        return compiled.read()


def program_fd() -> int:
    """A new descriptor (close-on-exec, to be passed on explicitly) from which :func:`program` reads, for
    bubblewrap's ``--seccomp``.

    Raises:
        SeccompUnavailable: libseccomp cannot be loaded.
    """
    fd = os.memfd_create("kafana-seccomp", os.MFD_CLOEXEC)
    try:
        os.write(fd, program())
        os.lseek(fd, 0, os.SEEK_SET)
    except BaseException:
        os.close(fd)
        raise
    return fd
