/*
 * policy.h: a site's policy for early successors chosen from replays of
 * many chains at once (adoption.h), as cluster-report.sh recommends it.
 *
 * The replays are the rows of mirage-eval --adoption, one table per
 * draw of services (--adopt-seed), each row led by its draw's seed: per
 * share of the long jobs' work made services, the services reactive
 * and then each policy (a method with its caps, holds and niceness).
 * Per share, of the policies mirage-advise can deploy, the one
 * recommended kept the most links without interruption in the span
 * before the one evaluated, among those that raised the other jobs'
 * mean wait there by at most harm percent against the same services
 * reactive; with none within it, the one that raised it least is named
 * instead.  Every figure is the median over the draws.
 */
#ifndef MG_POLICY_H
#define MG_POLICY_H

#include <stddef.h>
#include <stdio.h>

#include "base/status.h"

struct mg_policy;

/*
 * mg_policy_read: the replays' table from fp (name for messages): a
 * header naming at least seed, adoption_pct, method, wait_mean_h_all,
 * wait_p90_h_all, before_wait_mean_h, before_no_interruption,
 * span_no_interruption, jobs_per_1000h, successors and lease_given_h,
 * then rows of as many fields.  0 with *out set (mg_policy_free()), or
 * MG_EFORMAT (a column missing, a row of another width or with a number
 * that is not one, with its line), MG_ETRUNC (a last line without its
 * newline), MG_EIO or MG_ENOMEM, d saying why.
 */
int mg_policy_read(FILE *fp, const char *name, struct mg_policy **out,
    struct mg_diag *d);

/*
 * mg_policy_deploy: the options mirage-advise deploys the policy named
 * method with ("--lead 24h --min-run 50% --handover"; a target's with
 * --target target --settings target.tsv) into buf: 0, or -1 where it
 * cannot (a cap on early successors waiting at once is the
 * scheduler's to keep, and a method it does not run).
 */
int mg_policy_deploy(const char *method, const char *target, char *buf,
    size_t cap);

/*
 * mg_policy_write: per share, the policy recommended (harm: the others'
 * mean wait raised by at most that many percent; target: as given to
 * --target, for a target's policy) and what it did in the span
 * evaluated, a line each, in words.  0 or MG_EIO.
 */
int mg_policy_write(const struct mg_policy *p, double harm,
    const char *harm_text, const char *target, FILE *fp, struct mg_diag *d);

void mg_policy_free(struct mg_policy *p);

#endif /* MG_POLICY_H */
