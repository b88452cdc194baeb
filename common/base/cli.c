/* cli.c: shared command plumbing; see cli.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "base/cli.h"

/*
 * The temporary files being written: a signal that ends the command
 * removes them (unlink is async-signal-safe), then ends it as the
 * signal would have.
 */
#define MAXTMP	8
static char *volatile tmps[MAXTMP];

static void
on_signal(int sig)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (tmps[i] != NULL)
			unlink(tmps[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
track(char *tmp, int on)
{
	int i;

	for (i = 0; i < MAXTMP; i++)
		if (on ? tmps[i] == NULL : tmps[i] == tmp) {
			tmps[i] = on ? tmp : NULL;
			return;
		}
}

void
mg_cli_keep_heap(void)
{
#ifdef __GLIBC__
	/* blocks up to 32 MB from the heap, its top trimmed past 256 MB */
	mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);	/* its most */
	mallopt(M_TRIM_THRESHOLD, 256 * 1024 * 1024);
#endif
}

int
mg_cli_init(char *argv[])
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa;
	struct stat st;
	size_t i;
	int fd;

	for (fd = 0; fd <= 2; fd++)
		if (fstat(fd, &st) == -1 && errno == EBADF &&
		    open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			return MG_EIO;
	signal(SIGPIPE, SIG_DFL);
	/* getopt's messages name argv[0]: the name, as err()'s do */
	if (argv[0] != NULL && strrchr(argv[0], '/') != NULL &&
	    strrchr(argv[0], '/')[1] != '\0')
		argv[0] = strrchr(argv[0], '/') + 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		/* a signal the parent ignores stays ignored (nohup) */
		if (sigaction(sigs[i], NULL, &old) == 0 &&
		    old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
	return 0;
}

enum mg_progress
mg_cli_progress(int quiet, int asked)
{
	if (quiet)
		return MG_PROGRESS_OFF;
	if (asked)
		return MG_PROGRESS_LINES;
	return isatty(STDERR_FILENO) ? MG_PROGRESS_TTY : MG_PROGRESS_OFF;
}

void
mg_cli_args(int argc, char *const argv[], char *buf, size_t cap)
{
	size_t k = 0, n;
	int i;

	if (cap == 0)
		return;
	buf[0] = '\0';
	for (i = 1; i < argc; i++) {
		n = strlen(argv[i]);
		if (k + n + 2 > cap)
			break;
		if (k)
			buf[k++] = ' ';
		memcpy(buf + k, argv[i], n);
		k += n;
		buf[k] = '\0';
	}
}

int
mg_out_open(struct mg_out *o, const char *path, struct mg_diag *d)
{
	return mg_out_open_mode(o, path, 0666, d);
}

int
mg_out_open_mode(struct mg_out *o, const char *path, mode_t mode,
    struct mg_diag *d)
{
	struct stat st;
	size_t n;
	int fd;

	memset(o, 0, sizeof(*o));
	if (path == NULL || strcmp(path, "-") == 0) {
		o->fp = stdout;
		return 0;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/*
		 * A device or a FIFO (/dev/null, a named pipe): written in
		 * place, since renaming a file over it would replace it.
		 */
		if ((o->path = strdup(path)) == NULL)
			return mg_diag_set(d, MG_ENOMEM, "out of memory");
		if ((o->fp = fopen(path, "wb")) == NULL) {
			mg_diag_set(d, MG_EIO, "cannot open '%s': %s", path,
			    strerror(errno));
			mg_out_abort(o);
			return MG_EIO;
		}
		return 0;
	}
	n = strlen(path) + 16;
	if ((o->path = strdup(path)) == NULL || (o->tmp = malloc(n)) == NULL) {
		mg_out_abort(o);
		return mg_diag_set(d, MG_ENOMEM, "out of memory");
	}
	memcpy(o->tmp, path, n - 16);
	memcpy(o->tmp + n - 16, ".tmp.XXXXXX", 12);
	if ((fd = mkstemp(o->tmp)) == -1) {
		mg_diag_set(d, MG_EIO, "cannot create '%s' (written to a "
		    "temporary file beside it, then renamed): %s", path,
		    strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		mg_out_abort(o);
		return MG_EIO;
	}
	{
		mode_t mask = umask(0);	/* mkstemp made it 0600 */

		umask(mask);
		fchmod(fd, mode & ~mask);
	}
	track(o->tmp, 1);
	if ((o->fp = fdopen(fd, "wb")) == NULL) {
		close(fd);
		mg_out_abort(o);
		return mg_diag_set(d, MG_EIO, "%s", strerror(errno));
	}
	return 0;
}

int
mg_out_commit(struct mg_out *o, struct mg_diag *d)
{
	int bad;

	if (o->path == NULL) {
		bad = fflush(stdout) != 0 || ferror(stdout);
		if (bad)
			return mg_diag_set(d, MG_EIO, "write error: %s",
			    strerror(errno ? errno : EIO));
		return 0;
	}
	bad = fflush(o->fp) != 0 || ferror(o->fp) ||
	    (o->tmp != NULL && fsync(fileno(o->fp)) != 0);
	if (fclose(o->fp) != 0)
		bad = 1;
	o->fp = NULL;
	if (bad || (o->tmp != NULL && rename(o->tmp, o->path) != 0)) {
		mg_diag_set(d, MG_EIO, "cannot write '%s': %s", o->path,
		    strerror(errno ? errno : EIO));
		mg_out_abort(o);
		return MG_EIO;
	}
	track(o->tmp, 0);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return 0;
}

void
mg_out_abort(struct mg_out *o)
{
	if (o->fp != NULL && o->fp != stdout)
		fclose(o->fp);
	o->fp = NULL;
	if (o->tmp != NULL)
		unlink(o->tmp);
	track(o->tmp, 0);
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
}
