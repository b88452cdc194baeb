/*
 * t_dynload.c: a library loaded when first used: its functions found in
 * order; a library the loader cannot find, and a function it lacks,
 * each refused with what to do, the same refusal on every later call.
 */
#include <math.h>
#include <string.h>

#include "base/dynload.h"
#include "base/status.h"
#include "tap.h"

static struct {
	double (*cos)(double);
	double (*sqrt)(double);
} m;
static const char *const m_names[] = { "cos", "sqrt" };
static struct mg_dynlib m_lib = { "libm.so.6", "libc6", m_names, 2, &m, 0,
	"" };

static struct {
	double (*sqrt)(double);
} none;
static const char *const none_names[] = { "sqrt" };
static struct mg_dynlib none_lib = { "libmirage-absent.so.9",
	"libmirage-absent9", none_names, 1, &none, 0, "" };

static struct {
	double (*sqrt)(double);
	double (*nofn)(double);
} lack;
static const char *const lack_names[] = { "sqrt", "mg_no_such_function" };
static struct mg_dynlib lack_lib = { "libm.so.6", "libc6", lack_names, 2,
	&lack, 0, "" };

int
main(void)
{
	struct mg_diag d;
	int rv;

	memset(&d, 0, sizeof(d));
	rv = mg_dynload(&m_lib, &d);
	ok(rv == 0 && m.cos != NULL && m.sqrt != NULL,
	    "libm: both functions found (%d)", rv);
	ok(rv == 0 && m.sqrt(2.25) == 1.5 && m.cos(0) == 1,
	    "libm: each pointer is the function of its name");
	ok(mg_dynload(&m_lib, &d) == 0, "loaded once, then 0 again");

	rv = mg_dynload(&none_lib, &d);
	ok(rv == MG_EIO, "an absent library: MG_EIO (%d)", rv);
	ok(strstr(d.msg, "libmirage-absent.so.9") != NULL &&
	    strstr(d.msg, "on Debian, install libmirage-absent9") != NULL &&
	    strstr(d.msg, "mirage(7)") != NULL,
	    "the message names the library, the package and the manual: %s",
	    d.msg);
	memset(&d, 0, sizeof(d));
	ok(mg_dynload(&none_lib, &d) == MG_EIO && strstr(d.msg,
	    "libmirage-absent.so.9") != NULL, "the same refusal again");

	rv = mg_dynload(&lack_lib, &d);
	ok(rv == MG_EIO && strstr(d.msg, "no function mg_no_such_function")
	    != NULL, "a function the library lacks: MG_EIO, named: %s", d.msg);
	return tap_done();
}
