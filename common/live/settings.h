/*
 * settings.h: the settings mirage-eval --target chose for a reliability
 * target, one per chain size (its -F tsv table), as mirage-advise
 * --target --settings applies them.
 */
#ifndef MG_SETTINGS_H
#define MG_SETTINGS_H

#include "base/status.h"
#include "live/drive.h"

/*
 * mg_settings_read: the rows of path for target (0 to 1) into
 * dr->chosen: with dr->plan the planner's prices; without, the rule
 * recommended for each size (the scheduler estimate's margin, a fixed
 * lead; a model or the planner as another's method).  A setting that fell
 * short of the target in a fold is said through dr->sl.warn.  0, or
 * with d naming the file and line: MG_EIO, MG_EFORMAT (a bad row, a
 * NUL, a number not finite or out of range, two settings for a size,
 * nothing chosen), MG_ETRUNC (cut short), MG_ETYPE (not such a table),
 * MG_EINVAL (a directory; another target's or handing-over framing's).
 */
int mg_settings_read(struct mg_drive *dr, const char *path, double target,
    struct mg_diag *d);

/*
 * mg_settings_model: dr->model's threshold, chosen for target (0 to 1)
 * by mirage-train --target, checked: its promise into dr->promise, and
 * one short of the target said through dr->sl.warn unless quiet.  0, or
 * with d saying why: MG_EIO (unreadable, or its target's keys damaged),
 * the model reader's statuses, MG_EINVAL (chosen for another target or
 * without the chain's handing over).
 */
int mg_settings_model(struct mg_drive *dr, double target,
    struct mg_diag *d);

#endif /* MG_SETTINGS_H */
