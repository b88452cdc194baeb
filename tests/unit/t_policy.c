/*
 * t_policy.c: a site's policy chosen from replays of many chains at
 * once: the options each policy is deployed with, the choice within the
 * harm allowed (medians over draws, each against its own draw's
 * reactive run), the least harm without one, and bad tables refused.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eval/policy.h"
#include "tap.h"

#define HEAD	"seed\tadoption_pct\tmethod\tsuccessors\tlease_given_h\t" \
	"jobs_per_1000h\tspan_no_interruption\tbefore_wait_mean_h\t" \
	"before_no_interruption\twait_mean_h_all\twait_p90_h_all\n"

static void
deploy(void)
{
	char b[256];

	ok(mg_policy_deploy("lead 24h, handover, min run 50%", "99%", b,
	    sizeof(b)) == 0 && strcmp(b, "--lead 24h --min-run 50% "
	    "--handover") == 0, "a lead with its minimum run: '%s'", b);
	ok(mg_policy_deploy("planner 8 futures, handover, low", "", b,
	    sizeof(b)) == 0 && strcmp(b, "--plan 8 --low --handover") == 0,
	    "the planner, low: '%s'", b);
	ok(mg_policy_deploy("target t.tsv, handover", "99%", b, sizeof(b)) ==
	    0 && strcmp(b, "--target 99% --settings target.tsv --handover") ==
	    0, "a target's table: '%s'", b);
	ok(mg_policy_deploy("planner 8 futures, handover, cap 4", "", b,
	    sizeof(b)) == -1 && mg_policy_deploy("reactive", "", b,
	    sizeof(b)) == -1 && mg_policy_deploy("lead x", "", b,
	    sizeof(b)) == -1, "a cap, the reactive rule, a lead of no time: "
	    "not deployable");
}

/* the lines mg_policy_write() makes of table text at harm h */
static char *
lines(const char *text, double h, const char *ht, int *rv)
{
	struct mg_policy *p;
	struct mg_diag d = { "" };
	FILE *in = fmemopen((void *)text, strlen(text), "r"), *out;
	char *buf = NULL;
	size_t n = 0;

	*rv = mg_policy_read(in, "t.tsv", &p, &d);
	fclose(in);
	if (*rv != 0) {
		buf = strdup(d.msg);
		return buf;
	}
	out = open_memstream(&buf, &n);
	*rv = mg_policy_write(p, h, ht, "99%", out, &d);
	fclose(out);
	mg_policy_free(p);
	return buf;
}

static void
choice(void)
{
	/* two draws; in each, lead 6h raises the others' wait before by
	 * 10% and keeps 0.9, lead 24h by 2% and keeps 0.8, the capped
	 * planner by 0% and keeps 0.99 (but cannot be deployed) */
	const char *t = HEAD
	    "1\t30\treactive\t10\t0\t5\t0.5\t2\t0.5\t2\t6\n"
	    "1\t30\tlead 6h, handover\t10\t20\t5\t0.95\t2.2\t0.9\t2.4\t7\n"
	    "1\t30\tlead 24h, handover\t10\t40\t5\t0.9\t2.04\t0.8\t2.1\t6\n"
	    "1\t30\tplanner 8 futures, handover, cap 1\t10\t9\t5\t1\t2\t0.99\t2\t6\n"
	    "2\t30\treactive\t10\t0\t5\t0.5\t4\t0.5\t4\t6\n"
	    "2\t30\tlead 6h, handover\t10\t20\t5\t0.95\t4.4\t0.9\t4.8\t9\n"
	    "2\t30\tlead 24h, handover\t10\t40\t5\t0.9\t4.08\t0.8\t4.2\tnan\n"
	    "2\t30\tplanner 8 futures, handover, cap 1\t10\t9\t5\t1\t4\t0.99\t4\t6\n";
	char *s;
	int rv;

	s = lines(t, 5, "5", &rv);
	ok(rv == 0 && strstr(s, "at 30%, recommended: lead 24h, handover "
	    "(mirage-advise --lead 24h --handover), of the 2 policies "
	    "mirage-advise can deploy the one that kept the most links without "
	    "interruption there (80.0%) with the others' mean wait up by at "
	    "most 5% (+2.0%) in the span before, medians over 2 draws of "
	    "services;") == s, "within 5%%, the lead that kept the most");
	ok(rv == 0 && strstr(s, "the others' mean wait +5.0% (90th percentile "
	    "+0.0%) against the same services reactive, the services 90.0% of "
	    "links without interruption (reactive 50.0%), 5 jobs per 1,000 "
	    "hours, 4.0 h of each job's limit given up\n") != NULL,
	    "what it did after, a nan left out of its median");
	free(s);
	s = lines(t, 20, "20", &rv);
	ok(rv == 0 && strstr(s, "recommended: lead 6h, handover") != NULL,
	    "within 20%%, the one that kept more");
	free(s);
	s = lines(t, 1, "1", &rv);
	ok(rv == 0 && strstr(s, "at 30%, no policy mirage-advise can deploy "
	    "kept the others' mean wait within +1% in the span before, medians "
	    "over 2 draws of services; the least harm: lead 24h, handover "
	    "(mirage-advise --lead 24h --handover, +2.0%), which kept 80.0% of "
	    "links without interruption there;") == s,
	    "within 1%%, none: the least harm named");
	free(s);
}

static void
refused(void)
{
	char *s;
	int rv;

	s = lines("seed\tadoption_pct\tmethod\n", 5, "5", &rv);
	ok(rv == MG_EFORMAT && strstr(s, "'t.tsv', line 1: no column "
	    "'wait_mean_h_all'") != NULL, "a column missing: %s", s);
	free(s);
	s = lines(HEAD "1\t30\treactive\t10\t0\t5\t0.5\t2\t0.5\t2\n", 5, "5",
	    &rv);
	ok(rv == MG_EFORMAT && strstr(s, "line 2: 10 fields, the header has "
	    "11") != NULL, "a row too short: %s", s);
	free(s);
	s = lines(HEAD "1\t30\treactive\t10\t0\t5\t0.5\t2\t0.5\ttwo\t6\n", 5,
	    "5", &rv);
	ok(rv == MG_EFORMAT && strstr(s, "line 2:") != NULL, "not a number: "
	    "%s", s);
	free(s);
	s = lines(HEAD "1\t30\treactive\t10\t0\t5\t0.5\t2\t0.5\t2\t6", 5, "5",
	    &rv);
	ok(rv == MG_ETRUNC && strstr(s, "line 2: cut short") != NULL,
	    "a last line without its newline: %s", s);
	free(s);
	s = lines("", 5, "5", &rv);
	ok(rv == MG_EFORMAT, "an empty table");
	free(s);
}

int
main(void)
{
	deploy();
	choice();
	refused();
	return tap_done();
}
