#!/usr/bin/env bash
# nightly-retrain.sh: retrain the model of when to submit from the last
# days of the cluster's accounting, and install it only if it is not
# worse than the model in use.  Meant for cron; see mirage-pipelines(7).
#
#   sacct (last N days) -> mirage-parse -> mirage-features -> mirage-split
#     -> mirage-train -> mirage-eval (new against current, same episodes)
#     -> install atomically if its cost is not higher; keep the last K
#   with -T: mirage-eval --target on the last 4 weeks -> dir/target.tsv,
#     installed atomically, for mirage-advise --target --settings; with
#     -R chosen on the real jobs' waits (mirage-eval --real), not the
#     cluster model's
#
# Usage: nightly-retrain.sh [-D dir] [-d days] [-i dump] [-p partition]
#            [-a kind] [-k sizes] [-f from] [-N count] [-M margin] [-K keep]
#            [-z zone] [-T target [-H handover] [-R]]
#            [-- cluster-model options for mirage-features/mirage-eval]
# Example crontab line (02:30 every night):
#   30 2 * * * /usr/local/share/mirage/pipelines/nightly-retrain.sh -D /var/lib/mirage -p gpu-a100 -- -n 84 >/dev/null 2>&1
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# installed copies find the tools where make install put them (cron's
# PATH has no /usr/local/bin); a build directory, if any, comes first
installed_bin=
[ -n "$installed_bin" ] && PATH=$installed_bin:$PATH
bin=${B:-$root/build/default}
case $bin in /*) ;; *) bin=$root/$bin ;; esac
[ -x "$bin/mirage-parse" ] && PATH=$bin:$PATH
export LC_ALL=C OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}

usage() { # usage [status]: -h on stdout, exit 0; a misuse on stderr, 2
	if [ "${1:-2}" = 0 ]; then
		sed -n '/^# Usage:/,/^# Example/p' "$0" | sed '$d; s/^# \{0,1\}//'
		exit 0
	fi
	sed -n '/^# Usage:/,/^# Example/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
	exit 2
}

dir=${MIRAGE_DIR:-/var/lib/mirage} days=60 input= partition= kind=gbt
sizes=1 from= count= margin=0 keep=7 zone=local target= handover=10m real=
while getopts D:d:i:p:a:k:f:N:M:K:z:T:H:Rh opt; do
	case $opt in
	D) dir=$OPTARG ;;
	d) days=$OPTARG ;;
	i) input=$OPTARG ;;
	p) partition=$OPTARG ;;
	a) kind=$OPTARG ;;
	k) sizes=$OPTARG ;;
	f) from=$OPTARG ;;
	N) count=$OPTARG ;;
	M) margin=$OPTARG ;;
	K) keep=$OPTARG ;;
	z) zone=$OPTARG ;;	# sacct prints the zone of TZ (default)
	T) target=$OPTARG ;;
	H) handover=$OPTARG ;;
	R) real=1 ;;
	h) usage 0 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
model=("$@")		# -n 84, -m faithful, -c cluster.conf, ...
[[ $days =~ ^[0-9]+$ && $keep =~ ^[1-9][0-9]*$ ]] || usage
[[ $margin =~ ^[0-9]+([.][0-9]+)?$ ]] || usage
if [ -n "$real" ] && [ -z "$target" ]; then
	echo "nightly-retrain.sh: -R chooses a target's settings: it goes with -T" >&2
	exit 2
fi

mkdir -p "$dir/logs" "$dir/models" "$dir/work"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
log=$dir/logs/nightly-$stamp.log

# one run at a time: a run still going when cron starts the next wins
exec 9>"$dir/lock"
if ! flock -n 9; then
	echo "nightly-retrain: another run holds $dir/lock; not starting" >&2
	exit 75
fi
# the run itself, called with fd 9 closed: the shell keeps the lock on a
# copy its commands do not inherit, so that a run killed outright (-9)
# leaves no tool or tee holding it for the next night
nightly() {
	exec > >(tee -a "$log") 2>&1
	say() { printf '%s nightly-retrain: %s\n' "$(date -u +%FT%TZ)" "$*"; }
	work=$(mktemp -d "$dir/work/run-$stamp.XXXX")
	name=model-$stamp.mrm
	# whatever ends the run, nothing of it is left half-made
	trap 'rm -rf "$work" "$dir/models/.$name.tmp" "$dir/.current.tmp" "$dir/.target.tmp"' EXIT
	# a long step runs in the background and is waited for, so that a
	# signal stops the run at once, the step with it
	child=
	step() { "$@" & child=$!; wait "$child"; }
	# (a step that has ended already cannot be killed: under set -e a
	# failed kill would end the run with 1, not the signal's status)
	trap 'say "stopped by SIGTERM"; [ -z "$child" ] || kill "$child" 2>/dev/null || :; exit 143' TERM
	trap 'say "stopped by SIGINT"; [ -z "$child" ] || kill "$child" 2>/dev/null || :; exit 130' INT
	# the settings not chosen again end the run with mirage-eval's
	# status, after the model's retraining
	table_failed=0
	finish() { exit "$table_failed"; }
	say "start: dir $dir, kind $kind, sizes $sizes, log $log"

	if [ -n "$input" ]; then
		say "jobs from $input"
		mirage-parse -q -z "$zone" "$input" -o "$work/jobs.mrs"
	else
		say "jobs from sacct, last $days days${partition:+, partition $partition}"
		# a hung controller must not hang every later night: a time limit
		timeout "${MIRAGE_SACCT_TIMEOUT:-600}" \
		    sacct -a -X -P -S "now-${days}days" -E now ${partition:+-r "$partition"} \
		    -o JobID,JobIDRaw,JobName,UID,Partition,State,Submit,Eligible,Start,End,Timelimit,NNodes,AllocTRES,ReqTRES,Priority |
		    mirage-parse -q -z "$zone" -o "$work/jobs.mrs"
	fi
	say "$(($(mirage-cat "$work/jobs.mrs" | wc -l) - 1)) jobs"

	# -T: the settings for the target re-chosen on the last 4 weeks whose
	# outcomes are known (every 4 hours, 168 episodes, the last ending 4
	# hours before the day they are read on: the day before the newest
	# episode's workload ends); installed whole, whatever the model's fate
	if [ -n "$target" ]; then
		last=$(mirage-cat "$work/jobs.mrs" | awk -F'\t' '
		    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		    $c["submit"] > m { m = $c["submit"] } END { print m + 0 }')
		day=$((last - 5 * 86400 - 86400))
		day=$((day - day % 14400))
		# the real jobs: those of the 4 weeks to the dump's last day
		# that had started by then, the level walked over them
		choose=(--train-from $((day - 33 * 86400)) --train-count 168 -f $day -N 6)
		if [ -n "$real" ]; then
			day=$((last - last % 86400))
			choose=(--real -f $day)
			say "settings for $target: chosen on the real jobs of the 4 weeks up to $(date -u -d @$day +%F)"
		else
			say "settings for $target: chosen on the 4 weeks from $(date -u -d @$((day - 33 * 86400)) +%F), read on the day from $(date -u -d @$day +%F)"
		fi
		if step mirage-eval -q "${model[@]}" -k "$sizes" --handover "$handover" --target "$target" \
		    "${choose[@]}" -F tsv -o "$work/target.tsv" "$work/jobs.mrs"; then
			cp "$work/target.tsv" "$dir/.target.tmp"
			mv "$dir/.target.tmp" "$dir/target.tsv"
			say "installed the settings for $target as $dir/target.tsv"
		else
			table_failed=$?
			# what the chains read meanwhile, and until when
			ended=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "history_end") k = i; next }
			    k && $k > e { e = $k } END { print e + 0 }' "$dir/target.tsv" 2>/dev/null || echo 0)
			if [ "${ended:-0}" -gt 0 ]; then
				say "the settings were not chosen again (mirage-eval exited $table_failed, above): $dir/target.tsv stays, chosen on a history that ended $(date -u -d @"$ended" +%F), $(( ($(date +%s) - ended) / 86400 )) days ago (mirage-advise warns once that is 14 days); the model is retrained all the same"
			else
				say "the settings were not chosen again (mirage-eval exited $table_failed, above): there is no $dir/target.tsv for mirage-advise --settings; the model is retrained all the same"
			fi
		fi
	fi

	sel=(-k "$sizes" ${from:+-f "$from"} ${count:+-N "$count"})
	step mirage-features -q "${model[@]}" "${sel[@]}" -w 1 -o "$work/samples.mrs" "$work/jobs.mrs"
	mirage-split -F 0.8 -t "$work/train.mrs" -v "$work/valid.mrs" "$work/samples.mrs"
	step mirage-train -q -a "$kind" -o "$work/new.mrm" "$work/train.mrs"
	# a model is installed only if it loads and scores (mirage-train -i)
	if ! why=$(mirage-train -i "$work/new.mrm" 2>&1 >/dev/null); then
		say "the new model cannot be used ($why): nothing installed"
		exit 1
	fi

	# the validation episodes: their first and last start
	read -r v0 v1 < <(mirage-cat "$work/valid.mrs" | awk -F'\t' '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ s = $c["ep_start"]; if (lo == "" || s < lo) lo = s; if (s > hi) hi = s }
		END { print lo, hi }')
	[ -n "$v0" ] || { say "no validation episode: nothing installed"; exit 1; }
	ms=(-M "$work/new.mrm")
	if [ -e "$dir/current.mrm" ]; then
		cp "$dir/current.mrm" "$work/current.mrm"
		# a model that cannot be read, loaded or scored is the worst: it
		# is replaced
		if why=$(mirage-train -i "$work/current.mrm" 2>&1 >/dev/null); then
			ms+=(-M "$work/current.mrm")
		else
			say "the current model cannot be used ($why): it is replaced"
		fi
	fi
	step mirage-eval -q "${model[@]}" -k "$sizes" -f "$v0" -u "$v1" "${ms[@]}" -F tsv \
	    -o "$work/eval.tsv" "$work/jobs.mrs"
	cp "$work/eval.tsv" "$dir/logs/eval-$stamp.tsv"

	# cost: mean interruption + 0.25 x mean overlap, hours, over every
	# validation chain (the weights of mirage-train's RL reward)
	cost() {
		awk -F'\t' -v m="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["method"] == m { n += $c["episodes"]
			s += $c["episodes"] * ($c["interruption_mean_h"] + 0.25 * $c["overlap_mean_h"]) }
		END { if (n) printf "%.4f", s / n }' "$work/eval.tsv"
	}
	new=$(cost new) cur=$(cost current) rea=$(cost reactive)
	say "validation cost (h): new $new, current ${cur:-none}, reactive $rea"

	if [ -n "$cur" ] && [ "$new" = "$cur" ]; then
		# the same cost to the last digit: the same decisions, nothing to gain
		say "kept the current model: an exact tie ($new h)"
		finish
	fi
	if [ -n "$cur" ] && ! awk -v n="$new" -v c="$cur" -v m="$margin" 'BEGIN { exit !(n <= c - m) }'; then
		say "kept the current model: the new one's cost $new h is not at most $cur h - $margin h"
		finish
	fi
	cp "$work/new.mrm" "$dir/models/.$name.tmp"
	mv "$dir/models/.$name.tmp" "$dir/models/$name"
	ln -sfn "models/$name" "$dir/.current.tmp"
	mv -T "$dir/.current.tmp" "$dir/current.mrm"
	say "installed $name as $dir/current.mrm"
	# keep the newest $keep models (the current one among them)
	ls -1t "$dir/models"/model-*.mrm | tail -n +$((keep + 1)) | while read -r old; do
		[ "$(readlink -f "$old")" = "$(readlink -f "$dir/current.mrm")" ] || rm -f "$old"
	done
	finish
}
nightly "$@" 9>&-
