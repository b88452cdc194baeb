/*
 * proc.c: fork, execvp and two pipes; see proc.h.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/proc.h"
#include "base/clock.h"

#define ERRMAX	4096

static int
grow(char **buf, size_t *cap, size_t need)
{
	char *b;
	size_t c = *cap ? *cap : 4096;

	while (c < need)
		c *= 2;
	if (c == *cap)
		return 0;
	if ((b = realloc(*buf, c)) == NULL)
		return -1;
	*buf = b;
	*cap = c;
	return 0;
}

static mg_proc_fake fake;
static void *fake_arg;

void
mg_proc_set_fake(mg_proc_fake fn, void *arg)
{
	fake = fn;
	fake_arg = arg;
}

/* mg_proc_runf() without flags or env */
static int
mg_proc_run(const char *const argv[], int timeout, struct mg_proc *p,
    struct mg_diag *d)
{
	return mg_proc_runf(argv, NULL, timeout, 0, p, d);
}

int
mg_proc_runf(const char *const argv[], const char *const env[],
    int timeout, int flags, struct mg_proc *p, struct mg_diag *d)
{
	int po[2] = { -1, -1 }, pe[2] = { -1, -1 }, px[2] = { -1, -1 };
	size_t ocap = 0, elen = 0;
	struct pollfd fds[2];
	time_t until = time(NULL) + timeout;
	int ws, e = 0, open_fds = 2, rv = 0;
	ssize_t got;
	pid_t pid;

	if (fake != NULL) {
		memset(p, 0, sizeof(*p));
		return fake(fake_arg, argv, env, timeout, p, d);
	}
	memset(p, 0, sizeof(*p));
	if ((p->err = calloc(1, ERRMAX + 1)) == NULL ||
	    grow(&p->out, &ocap, 1) != 0)
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	/* px tells the parent whether execvp failed, and why */
	if (pipe(po) || pipe(pe) || pipe(px) ||
	    fcntl(px[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(px[1], F_SETFD, FD_CLOEXEC) == -1) {
		rv = mg_diag_set(d, MG_EIO, "pipe: %s", strerror(errno));
		goto out;
	}
	if ((pid = fork()) < 0) {
		rv = mg_diag_set(d, MG_EIO, "fork: %s", strerror(errno));
		goto out;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (flags & MG_PROC_GROUP)
			(void)setsid();
		for (e = 0; env != NULL && env[e] != NULL; e++)
			(void)putenv((char *)(uintptr_t)env[e]);
		if (null >= 0)
			dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		close(px[0]);
		execvp(argv[0], (char *const *)(uintptr_t)argv);
		e = errno;
		if (write(px[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	close(px[1]);
	po[1] = pe[1] = px[1] = -1;
	if (read(px[0], &e, sizeof(e)) == (ssize_t)sizeof(e)) {
		waitpid(pid, &ws, 0);
		rv = mg_diag_set(d, MG_EIO, "cannot run '%s': %s", argv[0],
		    strerror(e));
		goto out;
	}
	fds[0].fd = po[0];
	fds[1].fd = pe[0];
	fds[0].events = fds[1].events = POLLIN;
	while (open_fds > 0) {
		int left = (int)(until - time(NULL)), r;

		if (left <= 0) {
			kill((flags & MG_PROC_GROUP) ? -pid : pid, SIGKILL);
			p->timedout = 1;
			break;
		}
		r = poll(fds, 2, left * 1000);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		if (fds[0].revents) {
			if (grow(&p->out, &ocap, p->outlen + 4097) != 0) {
				kill(pid, SIGKILL);
				waitpid(pid, &ws, 0);
				rv = mg_diag_set(d, MG_ENOMEM, "out of memory");
				goto out;
			}
			got = read(po[0], p->out + p->outlen, 4096);
			if (got > 0 && !(flags & MG_PROC_NOOUT))
				p->outlen += (size_t)got;
			else if (got == 0 || errno != EINTR) {
				fds[0].fd = -1;
				open_fds--;
			}
		}
		if (fds[1].revents) {
			char buf[1024];

			got = read(pe[0], buf, sizeof(buf));
			if (got > 0) {
				size_t k = (size_t)got;

				if (k > ERRMAX - elen)
					k = ERRMAX - elen;
				memcpy(p->err + elen, buf, k);
				elen += k;
			} else if (got == 0 || errno != EINTR) {
				fds[1].fd = -1;
				open_fds--;
			}
		}
	}
	p->out[p->outlen] = '\0';
	while (elen > 0 && (p->err[elen - 1] == '\n' || p->err[elen - 1] ==
	    ' '))
		elen--;
	p->err[elen] = '\0';
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	p->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
out:
	for (e = 0; e < 2; e++) {
		if (po[e] >= 0)
			close(po[e]);
		if (pe[e] >= 0)
			close(pe[e]);
		if (px[e] >= 0)
			close(px[e]);
	}
	if (rv != 0)
		mg_proc_release(p);
	return rv;
}

int
mg_proc_run_tries(const char *const argv[], int timeout, int tries,
    const char *final, struct mg_proc *p, int *runs, struct mg_diag *d)
{
	int k, rv;

	for (k = 1; ; k++) {
		*runs = k;
		if ((rv = mg_proc_run(argv, timeout, p, d)) != 0)
			return rv;
		if (p->status == 0 || p->timedout || k >= tries ||
		    (final != NULL && strstr(p->err, final) != NULL))
			return 0;
		mg_proc_release(p);
		mg_clock_sleep((int64_t)1 << (k - 1 < 5 ? k - 1 : 5),
		    MG_CLOCK_RETRY);
	}
}

void
mg_proc_release(struct mg_proc *p)
{
	free(p->out);
	free(p->err);
	p->out = p->err = NULL;
	p->outlen = 0;
}

int
mg_proc_selfdir(char *buf, size_t cap)
{
	ssize_t n;
	char *slash;

	if (cap < 2 || (n = readlink("/proc/self/exe", buf, cap - 1)) < 0 ||
	    (size_t)n >= cap - 1)
		return MG_EIO;
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL)
		return MG_EIO;
	*(slash == buf ? slash + 1 : slash) = '\0';
	return 0;
}
