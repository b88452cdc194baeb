/*
 * protocol.h: the evaluation protocol's decisions and metrics over the
 * outcomes of episodes (episode.h): when each method submits the
 * successor, and how the chains fare.
 *
 * A method decides at the decision ticks before P's end, in order; the
 * first tick where it says "submit" is its submission; if it never does,
 * it submits at the first tick at or after P's end (the fallback every
 * method shares, as in the original).  The oracle takes, among every
 * time a method can submit at, the one with the smallest |x|.
 */
#ifndef MG_PROTOCOL_H
#define MG_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "episode/episode.h"

/*
 * mg_protocol_choose_first: the index into o->t of the first decision
 * tick before P's end, and not before o->t_first, whose score is at least threshold
 * (score[j] for the j-th tick, in order), or of the fallback tick.
 */
size_t mg_protocol_choose_first(const struct mg_outcome *o, const double *score,
    double threshold);

/* mg_choose_oracle: the time, not before o->t_first, with the smallest
 * |x|; on a tie, no interruption, then the earlier */
size_t mg_choose_oracle(const struct mg_outcome *o);

/*
 * mg_perfect_score: the scores of a predictor that knows every outcome,
 * for mg_protocol_choose_first(): score[j], for the j-th decision tick, is the
 * largest x (hours) of ticks j .. j + ahead (those at or after P's end
 * included).  With ahead 0, the threshold rule fed the true outcome of
 * submitting now (a reference, not a bound: a predictor whose errors
 * anticipate a jump of x at the next tick does better); with ahead 1,
 * the rule fed the outcome of waiting one more tick too.
 */
void mg_perfect_score(const struct mg_outcome *o, size_t ahead,
    double *score);

/* the load class of an episode, by the reactive outcome (spec 1.3) */
enum mg_load { MG_LOAD_LOW, MG_LOAD_MEDIUM, MG_LOAD_HEAVY };

enum mg_load mg_load_class(int64_t x_reactive);
const char *mg_load_name(enum mg_load l);

struct mg_summary {
	size_t n;
	double no_interruption;		/* share with x <= 0 */
	double seamless;		/* share with x == 0 */
	double int_mean_h, int_median_h, int_p90_h;	/* max(x, 0) */
	double ovl_mean_h;		/* max(-x, 0) */
	double oracle_gap_h;		/* mean |x| - |x_oracle| */
	size_t n_load[3];
	double no_int_load[3];		/* share with x <= 0, per class */
};

/*
 * mg_oracle_bound: the cheapest ways episode o can end, among the times
 * the oracle chooses from: *ovl, the smallest overlap (seconds) with no
 * interruption (x <= 0), or -1 if there is none; *intr, the smallest
 * interruption (x >= 0), or -1.
 */
void mg_oracle_bound(const struct mg_outcome *o, int64_t *ovl,
    int64_t *intr);

/*
 * mg_protocol_frontier: the most chains of n that any method choosing among
 * those times can bring through without interruption at a mean overlap
 * of at most budget seconds, from each episode's mg_oracle_bound():
 * the episodes whose overlap is cheapest come through, the others take
 * their smallest interruption.  Fills s's n, no_interruption,
 * int_mean_h and ovl_mean_h.  Returns 0 or MG_ENOMEM.
 */
int mg_protocol_frontier(const int64_t *ovl, const int64_t *intr, size_t n,
    double budget, struct mg_summary *s);

/*
 * mg_protocol_summarize: the metrics of n outcomes x (seconds), with the
 * oracle's and the reactive baseline's outcomes of the same episodes.  Returns 0
 * or MG_ENOMEM.
 */
int mg_protocol_summarize(const int64_t *x, const int64_t *x_oracle,
    const int64_t *x_reactive, size_t n, struct mg_summary *s);

/*
 * mg_handover_costs: what n outcomes x (seconds, S's start minus P's end)
 * cost when the chain hands over in c seconds (S starts, P checkpoints
 * and leaves c later; its nodes are freed then): *held, the mean
 * node-hours both jobs hold (min(-x, c) x nodes when S starts first);
 * *lease, the mean hours of P's limit given up (max(-x - c, 0)).  An
 * interruption (x > 0) costs neither.
 */
void mg_handover_costs(const int64_t *x, size_t n, int32_t nodes, int64_t c,
    double *held, double *lease);

/*
 * mg_renewal: a service that runs as a chain whose links fare as the n
 * outcomes x (seconds) do, each job running dur seconds unless handed
 * over: the links renew one another (a link lasts dur + x, from a job's
 * start to its successor's), so over the long run, per 30 days of the
 * calendar, the service is down_h hours down (x > 0); both jobs hold
 * their nodes waste_nh node-hours when P runs to its end beside S (the
 * whole overlap), or handover_waste_nh when it hands over in c seconds
 * (at most c a link); and the chain needs jobs_per_kh jobs per 1,000
 * hours of service.
 */
struct mg_renewal {
	double down_h, waste_nh, handover_waste_nh, jobs_per_kh;
};

void mg_renewal(const int64_t *x, size_t n, int32_t nodes, int64_t dur,
    int64_t c, struct mg_renewal *s);

#endif /* MG_PROTOCOL_H */
