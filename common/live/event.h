/*
 * event.h: the cluster's capacity over the past, from the node events
 * that slurmdbd records and sacctmgr shows:
 *
 *   sacctmgr -n -P show event Event=Node Start=... End=... \
 *       format=NodeName,TimeStart,TimeEnd,State
 *
 * (a header line naming these columns may come first, and then they may
 * come in any order among others, as "sacctmgr -P show event" prints
 * its default columns).  An event holds its node out of service from
 * TimeStart to TimeEnd ("Unknown": still); a node counts once however
 * many of its events overlap.
 */
#ifndef MG_EVENT_H
#define MG_EVENT_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"
#include "base/status.h"

struct mg_capacity {
	int64_t *time;		/* change points, ascending */
	int32_t *nodes;		/* nodes[k] up from time[k] on */
	size_t n;
	int32_t now;		/* up at now */
	size_t events;		/* events read */
	size_t others;		/* of them, of nodes not in the hostlist */
};

/*
 * mg_events_read: the capacity of a cluster of `nodes` nodes from since to
 * now, from the events in the file at path ("-": standard input; plain
 * or compressed, as io/input.h reads it); times in zone tz.  With only
 * (a Slurm hostlist, "gpu[001-084]"), the events of other nodes are left
 * out (c->others counts them).  The first point is at since (the events
 * that cover it already counted); events after now are left out.
 * Returns 0, or MG_EIO or MG_EFORMAT with d naming the file (and the
 * line), or MG_EINVAL (no nodes, since > now, a bad hostlist, or more
 * distinct nodes out of service than the cluster has: events of other
 * nodes), or MG_ENOMEM.  Free c with mg_capacity_release().
 */
int mg_events_read(const char *path, enum mg_tz tz, int32_t nodes,
    const char *only, int64_t since, int64_t now, struct mg_capacity *c,
    struct mg_diag *d);

/* mg_events_parse: the same from buf[0..len) (borrowed), shown as name. */
int mg_events_parse(const char *buf, size_t len, const char *name,
    enum mg_tz tz, int32_t nodes, const char *only, int64_t since,
    int64_t now, struct mg_capacity *c, struct mg_diag *d);

void mg_capacity_release(struct mg_capacity *c);

#endif /* MG_EVENT_H */
