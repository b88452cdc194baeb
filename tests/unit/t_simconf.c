/*
 * t_simconf.c: the cluster model's table of settings.  Each default the
 * table gives is the one a fresh configuration has; the table and the
 * key list of mirage-cluster(5) name the same settings; values out of
 * bounds, words not listed and unknown keys are refused with messages
 * that say what is wanted, and leave the configuration as it was.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mirage.h"
#include "cluster/simconf_int.h"
#include "tap.h"

#define MAXKEYS	128

/* the keys mirage-cluster(5) lists: each capitalised word of an .It Cm
 * line of its DESCRIPTION's first list */
static size_t
man_keys(const char *path, char keys[][64])
{
	FILE *fp = fopen(path, "r");
	char line[512], *tok;
	size_t n = 0;
	int depth = 0, in = 0;

	if (fp == NULL)
		return 0;
	while (fgets(line, sizeof(line), fp)) {
		if (strncmp(line, ".Sh DESCRIPTION", 15) == 0)
			in = 1;
		else if (strncmp(line, ".Sh ", 4) == 0)
			in = 0;
		if (!in)
			continue;
		if (strncmp(line, ".Bl", 3) == 0)
			depth++;
		else if (strncmp(line, ".El", 3) == 0 && --depth == 0)
			in = 0;	/* the first list ends */
		if (depth != 1 || strncmp(line, ".It Cm ", 7) != 0)
			continue;
		for (tok = strtok(line + 7, " \t\n"); tok != NULL;
		    tok = strtok(NULL, " \t\n")) {
			size_t k, len = strlen(tok);

			if (!isupper((unsigned char)tok[0]) || strcmp(tok,
			    "Ns") == 0 || strcmp(tok, "Cm") == 0)
				continue;
			for (k = 0; k < len && isalpha((unsigned char)tok[k]);
			    k++)
				;
			if (k == len && n < MAXKEYS)
				snprintf(keys[n++], 64, "%s", tok);
		}
	}
	fclose(fp);
	return n;
}

static int
listed(char keys[][64], size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(keys[i], name) == 0)
			return 1;
	return 0;
}

int
main(void)
{
	static char keys[MAXKEYS][64];
	struct mg_simconf *fresh, *c;
	struct mg_diag d = { "" };
	const char *name, *dflt, *doc;
	char kv[128];
	size_t i, n, nman, nd = 0, same = 0, inman = 0, intable = 0;

	if (!ok(mg_simconf_new(&fresh) == 0 && mg_simconf_new(&c) == 0,
	    "two configurations"))
		return tap_done();
	n = mg_simconf_settings();
	ok(n >= 50 && mg_simconf_setting(n, NULL, NULL) == NULL,
	    "the table: %zu settings, nothing past the last", n);
	/* each default, applied to a fresh configuration, changes nothing */
	for (i = 0; i < n; i++) {
		name = mg_simconf_setting(i, &dflt, &doc);
		if (doc == NULL || doc[0] == '\0')
			printf("# %s: no line of what it sets\n", name);
		if (dflt == NULL)
			continue;
		nd++;
		mg_simconf_init(c);
		snprintf(kv, sizeof(kv), "%s=%s", name, dflt);
		if (mg_simconf_set(c, kv, &d) == 0 &&
		    memcmp(c, fresh, sizeof(*c)) == 0)
			same++;
		else
			printf("# %s: not the default (%s)\n", kv, d.msg);
	}
	ok(nd > 30 && same == nd, "%zu of %zu defaults as mg_simconf_init() "
	    "sets them", same, nd);
	/* the man page's list and the table */
	nman = man_keys("man/mirage-cluster.5", keys);
	for (i = 0; i < n; i++) {
		name = mg_simconf_setting(i, NULL, NULL);
		if (listed(keys, nman, name))
			inman++;
		else
			printf("# %s: not in mirage-cluster(5)\n", name);
	}
	for (i = 0; i < nman; i++) {
		snprintf(kv, sizeof(kv), "%s=", keys[i]);
		mg_simconf_init(c);
		d.msg[0] = '\0';
		(void)mg_simconf_set(c, kv, &d);
		if (strstr(d.msg, "unknown key") == NULL)
			intable++;
		else
			printf("# %s: in mirage-cluster(5), not in the table\n",
			    keys[i]);
	}
	ok(inman == n, "every setting is in mirage-cluster(5): %zu of %zu",
	    inman, n);
	ok(nman > 0 && intable == nman, "every key mirage-cluster(5) lists "
	    "is a setting: %zu of %zu", intable, nman);
	/* refusals */
	mg_simconf_init(c);
	ok(mg_simconf_set(c, "Mode=quantum", &d) == MG_EINVAL &&
	    strcmp(d.msg, "Mode is reference or faithful, not 'quantum'") == 0,
	    "a word not listed: %s", d.msg);
	ok(mg_simconf_set(c, "FairshareBy=Tree", &d) == 0 &&
	    mg_simconf_set(c, "JobOrder=SJF", &d) == 0,
	    "words in any case");
	mg_simconf_init(c);
	ok(mg_simconf_set(c, "Nodes=0", &d) == MG_EINVAL &&
	    strcmp(d.msg, "bad value '0' for Nodes") == 0 &&
	    mg_simconf_set(c, "ElasticAlpha=0", &d) == MG_EINVAL &&
	    mg_simconf_set(c, "UrgentShare=1.5", &d) == MG_EINVAL &&
	    mg_simconf_set(c, "PriorityMaxAge=0", &d) == MG_EINVAL &&
	    memcmp(c, fresh, sizeof(*c)) == 0,
	    "values out of bounds, the configuration as it was");
	ok(mg_simconf_set(c, "Nodse=4", &d) == MG_EINVAL &&
	    strcmp(d.msg, "unknown key 'Nodse'") == 0 &&
	    mg_simconf_set(c, "ClusterName=ls6", &d) == 0,
	    "an unknown key refused, a slurm.conf key the model does not use "
	    "ignored");
	ok(mg_simconf_set(c, "PriorityMaxAge=2-0", &d) == 0 &&
	    c->slurm.max_age == 2 * 86400 && c->ref.max_age == 2 * 86400.0 &&
	    mg_simconf_set(c, "Nodes=12", &d) == 0 && c->ref.nodes == 12 &&
	    c->slurm.nodes == 12 && mg_simconf_set(c, "DLAttrSeed=7", &d) ==
	    0 && c->dl_seed == 7 && c->slurm.preempt_seed == 7,
	    "a setting of both models sets both");
	mg_simconf_free(c);
	mg_simconf_free(fresh);
	return tap_done();
}
