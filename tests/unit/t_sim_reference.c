/*
 * t_sim_reference.c: the reference mode against the original Mirage
 * simulator: all 156 LS6 validation episodes (88 nodes, 1-node chains),
 * reactive and average-wait baselines, compared with the golden values
 * in tests/fixtures/reference/ (from the original Python code, run
 * unmodified).  Run from the top of the tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mirage.h"
#include "cluster/sim.h"
#include "tap.h"
#include "ls6.h"

#define DAY 86400

struct golden {
	int64_t pstart, avgw, x;
};

static struct golden gold[156][2];	/* [episode][reactive, avg] */
static int64_t gold_pwait[156], gold_q[156];

static int
load_golden(const char *path)
{
	char line[512], *f[9], *p;
	int n = 0, k, i, m;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		for (k = 0, p = line; k < 9 && p; k++) {
			f[k] = p;
			if ((p = strchr(p, ',')) != NULL)
				*p++ = '\0';
		}
		if (k != 9 || strcmp(f[0], "i") == 0)
			continue;
		i = atoi(f[0]);
		m = strcmp(f[2], "avg") == 0;
		if (i < 0 || i >= 156)
			continue;
		gold[i][m].pstart = when(f[3]);
		gold[i][m].avgw = atoll(f[5]);
		gold[i][m].x = atoll(f[8]);
		n++;
	}
	fclose(fp);
	return n;
}

/* Pwait, avgW and qsize of each episode's pre-simulation */
static int
load_presim(const char *path)
{
	long long i, pw, aw, q;
	char line[256];
	int n = 0;
	FILE *fp = fopen(path, "r");

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "%lld %lld %lld %lld", &i, &pw, &aw, &q) == 4 &&
		    i >= 0 && i < 156) {
			gold_pwait[i] = pw;
			gold_q[i] = q;
			n++;
		}
	fclose(fp);
	return n;
}

/* submit S at tsub in a copy of s and return x */
static int64_t
probe(const struct mg_sim *s, mg_jobref p, int64_t tsub, int *ok)
{
	struct mg_sim *c = mg_sim_copy(s);
	mg_jobref j;
	int64_t x;

	while (mg_sim_time(c) < tsub)
		mg_sim_step(c);
	j = mg_sim_add_chain_job(c, "1000001", 1, 2 * DAY, 2 * DAY, tsub, p,
	    0);
	mg_sim_run_until_start(c, j, tsub + 60 * DAY);
	x = mg_sim_chain_gap(c, j, ok);
	mg_sim_free(c);
	return x;
}

int
main(void)
{
	struct mg_sim_params cfg;
	struct mg_trace t;
	int i, bad_start = 0, bad_pwait = 0, bad_q = 0, bad_avg = 0, bad_x[2] = { 0, 0 }, ok, first = -1;
	int64_t base = when("2023-03-01T00:00:00");

	i = load_trace("data/ls6-a100.log.gz", &t);
	ok(i == 0 && t.n == 24777, "LS6 trace loaded (%zu jobs)", t.n);
	ok(load_golden("tests/fixtures/reference/"
	    "ls6-validation-n88-node1-baselines.csv") == 312,
	    "golden values loaded");
	ok(load_presim("tests/fixtures/reference/"
	    "ls6-validation-n88-node1-presim.txt") == 156,
	    "golden pre-simulation values loaded");
	mg_sim_params_reference(&cfg, 88);
	for (i = 0; i < 156; i++) {
		int64_t s0 = base + (int64_t)i * 4 * 3600, x, avgw, pend;
		struct mg_sim *s;
		mg_jobref p;
		size_t q;
		int m;

		if (mg_sim_new(&cfg, &t, s0, s0, s0 + 5 * DAY, &s) != 0)
			abort();
		p = mg_sim_add_chain_job(s, "1000000", 1, 2 * DAY, 2 * DAY,
		    s0 + 2 * DAY, -1, 1);
		mg_sim_run_until_start(s, p, s0 + 60 * DAY);
		mg_sim_stats_after_start(s, &avgw, &q);
		if (mg_sim_job_start(s, p) != gold[i][0].pstart)
			bad_start++;
		if (avgw != gold[i][1].avgw)
			bad_avg++;
		if ((mg_sim_job_start(s, p) - mg_sim_job_submit(s, p)) / 60 !=
		    gold_pwait[i])
			bad_pwait++;
		if ((int64_t)q != gold_q[i])
			bad_q++;
		pend = mg_sim_job_start(s, p) + 2 * DAY;
		for (m = 0; m < 2; m++) {
			x = probe(s, p, m ? pend - avgw * 60 : pend, &ok);
			if (!ok || x != gold[i][m].x) {
				bad_x[m]++;
				if (first < 0)
					first = i;
				if (bad_x[m] <= 3)
					printf("# episode %d %s: x %lld, golden "
					    "%lld; P start %lld golden %lld; avgw "
					    "%lld golden %lld\n", i, m ? "avg" :
					    "reactive", (long long)x,
					    (long long)gold[i][m].x, (long long)
					    mg_sim_job_start(s, p), (long long)
					    gold[i][m].pstart, (long long)avgw,
					    (long long)gold[i][1].avgw);
			}
		}
		mg_sim_free(s);
	}
	ok(bad_start == 0, "P's start in all 156 episodes (%d differ)",
	    bad_start);
	ok(bad_pwait == 0, "P's wait in all 156 episodes (%d differ)",
	    bad_pwait);
	ok(bad_q == 0, "queue size at the stop point in all 156 episodes (%d "
	    "differ)", bad_q);
	ok(bad_avg == 0, "average wait in all 156 episodes (%d differ)",
	    bad_avg);
	ok(bad_x[0] == 0, "reactive x in all 156 episodes (%d differ)",
	    bad_x[0]);
	ok(bad_x[1] == 0, "average-wait x in all 156 episodes (%d differ)",
	    bad_x[1]);
	mg_trace_release(&t);
	return tap_done();
}
