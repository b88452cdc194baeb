/* mirage.h: the base and io headers that most commands and tests use. */
#ifndef MG_MIRAGE_H
#define MG_MIRAGE_H

#include "base/cli.h"
#include "io/input.h"
#include "io/job.h"
#include "base/parse.h"
#include "io/sacct.h"
#include "base/status.h"
#include "io/stream.h"

#endif /* MG_MIRAGE_H */
