/*
 * io/filesystems.c - which kind of filesystem a file lives on, for the file hooks
 * (io/stdio.c, io/file_contents.c): the policy of async.file_offload.
 *
 *   memory   tmpfs, ramfs, procfs, sysfs, devtmpfs, ...: never wait for a
 *            device; every operation runs inline, as in plain PHP.
 *   local    a local disk (ext4, xfs, btrfs, overlay, ...): data that is in
 *            the page cache is read inline; a read the cache cannot serve,
 *            a large write and fsync go through the backend; metadata calls
 *            (stat, unlink, ...) run inline, served by the kernel's caches.
 *   remote   NFS, CIFS/SMB, FUSE, Ceph, 9p, virtiofs, ... and autofs trigger
 *            points: any call may wait for a server, so every operation goes
 *            through the backend (a thread of the pool while the calling
 *            coroutine waits; io_uring reads and writes natively).
 *
 * The mount table comes from /proc/self/mountinfo, read again when the
 * kernel says it changed (poll() reports POLLPRI on that file; asked at most
 * every 100 ms). A path is
 * on the mount with the longest mount point that prefixes its absolute
 * form; a symbolic link that leads elsewhere is not followed (it may land a
 * remote file in the local class: its calls then block as in plain PHP). An
 * fd is classified by the st_dev of its fstat.
 *
 * async.file_offload=always puts every file in the remote class (tests use
 * it to drive the backend paths on a local disk); never puts every file in
 * the memory class (PHP's own behaviour for files; pipes are still taken
 * over).
 */
#include "io/filesystems.h"

#include "io/families.h"
#include "runtime/globals.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

typedef struct io_mount {
	char *dir;          /* mount point, unescaped */
	size_t len;
	dev_t dev;
	async_io_fs_class cls;
} io_mount;

ZEND_TLS io_mount *io_mounts;
ZEND_TLS uint32_t io_mount_count;
ZEND_TLS int io_mountinfo_fd = -1;

/* The filesystem types whose calls may wait for another machine or a
 * userspace daemon. */
static bool io_fs_type_is_remote(const char *type)
{
	static const char *const remote[] = {
		"nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "afs", "ceph", "glusterfs", "9p", "lustre",
		"gpfs", "virtiofs", "davfs", "autofs", "orangefs", "pvfs2", "beegfs", "ocfs2", "gfs2", "coda",
	};
	if (strncmp(type, "fuse", 4) == 0) {
		return true; /* fuse, fuseblk, fuse.sshfs, ... */
	}
	for (size_t i = 0; i < sizeof(remote) / sizeof(remote[0]); i++) {
		if (strcmp(type, remote[i]) == 0) {
			return true;
		}
	}
	return false;
}

static bool io_fs_type_is_memory(const char *type)
{
	static const char *const memory[] = {
		"tmpfs", "ramfs", "proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs",
		"tracefs", "securityfs", "pstore", "bpf", "mqueue", "hugetlbfs", "configfs", "efivarfs",
		"binfmt_misc", "fusectl", "nsfs", "rpc_pipefs",
	};
	for (size_t i = 0; i < sizeof(memory) / sizeof(memory[0]); i++) {
		if (strcmp(type, memory[i]) == 0) {
			return true;
		}
	}
	return false;
}

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void io_unescape(char *s)
{
	char *out = s;
	for (char *in = s; *in != '\0'; in++) {
		if (in[0] == '\\' && in[1] >= '0' && in[1] <= '3' && in[2] >= '0' && in[2] <= '7' && in[3] >= '0'
				&& in[3] <= '7') {
			*out++ = (char) ((in[1] - '0') * 64 + (in[2] - '0') * 8 + (in[3] - '0'));
			in += 3;
		} else {
			*out++ = *in;
		}
	}
	*out = '\0';
}

static void io_mounts_free(void)
{
	for (uint32_t i = 0; i < io_mount_count; i++) {
		free(io_mounts[i].dir);
	}
	free(io_mounts);
	io_mounts = NULL;
	io_mount_count = 0;
}

/* Reads the mount table (malloc: it outlives requests). */
static void io_mounts_load(void)
{
	io_mounts_free();
	if (io_mountinfo_fd < 0) {
		io_mountinfo_fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
		if (io_mountinfo_fd < 0) {
			return;
		}
	}
	/* The whole file, from its start (the kernel regenerates it). */
	size_t cap = 16384, len = 0;
	char *text = malloc(cap);
	if (text == NULL) {
		return;
	}
	for (;;) {
		if (len + 1 == cap) {
			char *bigger = realloc(text, cap * 2);
			if (bigger == NULL) {
				break;
			}
			text = bigger;
			cap *= 2;
		}
		ssize_t n = pread(io_mountinfo_fd, text + len, cap - len - 1, (off_t) len);
		if (n <= 0) {
			break;
		}
		len += (size_t) n;
	}
	text[len] = '\0';
	uint32_t cap_mounts = 0;
	for (char *line = text, *next; line != NULL && *line != '\0'; line = next) {
		next = strchr(line, '\n');
		if (next != NULL) {
			*next++ = '\0';
		}
		/* id parent major:minor root mountpoint options [optional...] - type source super */
		unsigned maj, min;
		char *fields[5];
		int nf = 0;
		char *save = NULL;
		for (char *tok = strtok_r(line, " ", &save); tok != NULL && nf < 5; tok = strtok_r(NULL, " ", &save)) {
			fields[nf++] = tok;
		}
		if (nf < 5 || sscanf(fields[2], "%u:%u", &maj, &min) != 2) {
			continue;
		}
		char *type = NULL;
		for (char *tok = strtok_r(NULL, " ", &save); tok != NULL; tok = strtok_r(NULL, " ", &save)) {
			if (strcmp(tok, "-") == 0) {
				type = strtok_r(NULL, " ", &save);
				break;
			}
		}
		if (type == NULL) {
			continue;
		}
		if (io_mount_count == cap_mounts) {
			cap_mounts = cap_mounts ? cap_mounts * 2 : 32;
			io_mount *bigger = realloc(io_mounts, cap_mounts * sizeof(io_mount));
			if (bigger == NULL) {
				break;
			}
			io_mounts = bigger;
		}
		io_mount *m = &io_mounts[io_mount_count];
		m->dir = strdup(fields[4]);
		if (m->dir == NULL) {
			break;
		}
		io_unescape(m->dir);
		m->len = strlen(m->dir);
		m->dev = makedev(maj, min);
		m->cls = io_fs_type_is_remote(type) ? ASYNC_IO_FS_REMOTE
			: io_fs_type_is_memory(type) ? ASYNC_IO_FS_MEMORY : ASYNC_IO_FS_LOCAL;
		io_mount_count++;
	}
	free(text);
}

/* The table is checked for changes at most this often (a poll() per stat
 * doubled its cost; mounts change rarely). */
#define IO_MOUNTS_CHECK_NS (100 * 1000 * 1000)
ZEND_TLS uint64_t io_mounts_checked;

/* Reloads the table when the kernel reports a change of the mounts. */
static void io_mounts_fresh(void)
{
	if (io_mountinfo_fd >= 0) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
		uint64_t now = (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
		if (io_mounts != NULL && now - io_mounts_checked < IO_MOUNTS_CHECK_NS) {
			return;
		}
		io_mounts_checked = now;
		struct pollfd p = { .fd = io_mountinfo_fd, .events = POLLPRI };
		if (io_mounts != NULL && poll(&p, 1, 0) == 0) {
			return;
		}
		/* Changed (or never read): read from a new open file, which
		 * clears the change report. */
		close(io_mountinfo_fd);
		io_mountinfo_fd = -1;
	}
	io_mounts_load();
}

static async_io_fs_class io_policy(async_io_fs_class cls)
{
	switch (ASYNC_G(file_offload)) {
		case ASYNC_IO_OFFLOAD_ALWAYS:
			return ASYNC_IO_FS_REMOTE;
		case ASYNC_IO_OFFLOAD_NEVER:
			return ASYNC_IO_FS_MEMORY;
		default:
			return cls;
	}
}

async_io_fs_class async_io_fs_of_dev(dev_t dev)
{
	if (ASYNC_G(file_offload) != ASYNC_IO_OFFLOAD_AUTO) {
		return io_policy(ASYNC_IO_FS_LOCAL);
	}
	io_mounts_fresh();
	/* The last mount of a device is the one on top. */
	for (uint32_t i = io_mount_count; i-- > 0;) {
		if (io_mounts[i].dev == dev) {
			return io_mounts[i].cls;
		}
	}
	return ASYNC_IO_FS_LOCAL;
}

async_io_fs_class async_io_fs_of_path(const char *path)
{
	if (ASYNC_G(file_offload) != ASYNC_IO_OFFLOAD_AUTO) {
		return io_policy(ASYNC_IO_FS_LOCAL);
	}
	char abs[MAXPATHLEN];
	if (strncasecmp(path, "file://", 7) == 0) {
		path += 7;
	}
	if (path[0] != '/') {
		/* Relative to the working directory PHP would use. */
		if (VCWD_GETCWD(abs, sizeof(abs)) == NULL) {
			return ASYNC_IO_FS_REMOTE; /* cannot tell: the safe side */
		}
		size_t n = strlen(abs);
		if (snprintf(abs + n, sizeof(abs) - n, "/%s", path) >= (int) (sizeof(abs) - n)) {
			return ASYNC_IO_FS_REMOTE;
		}
		path = abs;
	}
	io_mounts_fresh();
	const io_mount *best = NULL;
	for (uint32_t i = 0; i < io_mount_count; i++) {
		const io_mount *m = &io_mounts[i];
		bool under = m->len == 1 ? path[0] == '/'
			: strncmp(path, m->dir, m->len) == 0 && (path[m->len] == '/' || path[m->len] == '\0');
		/* Later entries are mounted on top of earlier ones. */
		if (under && (best == NULL || m->len >= best->len)) {
			best = m;
		}
	}
	return best != NULL ? best->cls : ASYNC_IO_FS_LOCAL;
}

void async_io_filesystems_shutdown(void)
{
	io_mounts_free();
	if (io_mountinfo_fd >= 0) {
		close(io_mountinfo_fd);
		io_mountinfo_fd = -1;
	}
}
