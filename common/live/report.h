/*
 * report.h: how a live chain fared.  The links its runs recorded
 * (chain.h: state.links) read against the accounting: for each, when
 * the predecessor (P) ended and the successor (S) started, the gap (the
 * service down) or the overlap, and the lease P gave up; for the
 * chain, the share of links kept against the share its settings
 * promised.
 */
#ifndef MG_REPORT_H
#define MG_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "live/chain.h"
#include "live/slurm.h"

/* a link's outcome as the accounting shows it at now */
enum mg_link_outcome {
	MG_LINK_OPEN,		/* P runs, S has not started: not judged */
	MG_LINK_KEPT,		/* S started by P's end */
	MG_LINK_GAP,		/* S started after P's end: an interruption */
	MG_LINK_DOWN,		/* P ended, S has not started: down now */
	MG_LINK_UNKNOWN		/* the accounting does not show both */
};

/* a link and what became of it; times -1 where not known */
struct mg_linkrep {
	struct mg_chainlink k;
	int64_t p_start, p_end, p_limit_end;
	int64_t s_start;
	enum mg_link_outcome outcome;
	int64_t gap;		/* seconds down: S's start (or now) less P's
				 * end; 0 if kept */
	int64_t overlap;	/* seconds both ran */
	int64_t lease;		/* P's limit given up by ending before it
				 * (a handover): its limit's end less its
				 * end, when kept */
};

struct mg_chainrep {
	struct mg_linkrep *link;
	size_t n;
	size_t judged, kept;	/* links whose outcome is known; kept */
	int64_t down;		/* seconds down over the judged links */
	int64_t worst;		/* the longest gap */
	double lease_h, overlap_h;	/* means over the kept links */
	double promise;		/* the least share promised over the
				 * judged links, 0 if none was */
};

/*
 * mg_chain_report_files: the chains of state[0..n) (each with its
 * links at state.links), judged on what sacct shows at now, reported to
 * fp: as text (a summary, then a line a link) or TSV (a row a link,
 * the chain named first; the header once).  A chain whose links are
 * unreadable or damaged, or when sacct fails (no report on a guess), is
 * said through s->warn (loud) and the others are reported.  0, or the
 * first failure's status.
 */
int mg_chain_report_files(const struct mg_slurm *s, const char *const *state,
    int n, int64_t now, FILE *fp, int tsv);

#endif /* MG_REPORT_H */
