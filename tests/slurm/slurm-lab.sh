#!/usr/bin/env bash
# slurm-lab.sh: a real Slurm cluster on loopback for mirage's integration
# tests, from Debian 12's packages: munged, a private MariaDB, slurmdbd,
# slurmctld and several slurmd acting as nodes (4 CPU nodes, 2 nodes with
# fake GPUs).  Must run as root.  Modelled on the lab script the project
# started from.  Everything it writes is under $MIRAGE_LAB (configuration,
# logs, the controller's state, a private munged's socket, a private
# MariaDB), and it listens on free ports it picks on the first `up`
# (kept in $MIRAGE_LAB/ports), so two labs on one host do not collide.
# Slurm's clients find the lab through SLURM_CONF=$MIRAGE_LAB/etc/slurm.conf.
#
#   slurm-lab.sh up       install if needed, configure, start (idempotent)
#   slurm-lab.sh load     submit the small test workload; prints its tag
#   slurm-lab.sh wait [S] wait until no job of the workload is pending or running
#   slurm-lab.sh down     stop what this script started
#   slurm-lab.sh wipe     down, then forget accounting and controller state
set -euo pipefail

LAB=${MIRAGE_LAB:-/var/tmp/mirage-slurm-lab}
RUN=$LAB/run
PIDS=$RUN/pids
DB=$LAB/mysql
SOCK=$RUN/mysql.sock
ETC=$LAB/etc
LOGS=$LAB/log
MUNGE=$LAB/munge/munge.socket
export SLURM_CONF=$ETC/slurm.conf
CLUSTER=mirage
CPU_NODES=(c1 c2 c3 c4)
GPU_NODES=(g1 g2)
NODES=("${CPU_NODES[@]}" "${GPU_NODES[@]}")
# and what the jobs of the handover tests run: curl (a health check),
# PyTorch (a DDP training on CPUs under torchrun)
PKGS=(slurmctld slurmd slurm-client slurmdbd munge mariadb-server curl python3-torch)

log() { printf 'slurm-lab: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

alive() { # alive PIDFILE NAME: the pid in PIDFILE runs a program called NAME
	local pid
	[[ -s $1 ]] || return 1
	pid=$(<"$1")
	[[ $pid =~ ^[0-9]+$ && -r /proc/$pid/comm ]] || return 1
	[[ $(</proc/"$pid"/comm) == "$2"* ]]
}
wait_for() { # wait_for SECONDS WHAT CMD...
	local end=$(( $(date +%s) + $1 )) what=$2
	shift 2
	until "$@" >/dev/null 2>&1; do
		(( $(date +%s) < end )) || die "timed out waiting for $what"
		sleep 0.2
	done
}
keep_pid() { # keep_pid NAME DAEMON-PIDFILE: remember a daemon we started
	wait_for 30 "pid file $2" test -s "$2"
	cp "$2" "$PIDS/$1.pid"
}

install() {
	local p missing=()
	for p in "${PKGS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		    grep -q 'install ok installed' || missing+=("$p")
	done
	((${#missing[@]})) || return 0
	log "installing ${missing[*]}"
	apt-get -o DPkg::Lock::Timeout=600 update -q >/dev/null
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
	    install -y -q --no-install-recommends "${missing[@]}" \
	    >"$LAB/apt.log" 2>&1 || { tail -20 "$LAB/apt.log"; die "apt-get failed"; }
}

# ports: nine free ones in a row (MariaDB, slurmctld, slurmdbd, six
# slurmd), picked once and kept with the lab
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_ports() {
	if [[ ! -s $LAB/ports ]]; then
		local base i ok tries=0
		while :; do
			# below Linux's ephemeral range (32768-60999), where an
			# outgoing connection could take a port once checked
			base=$(( 20000 + (RANDOM * 32768 + RANDOM) % 12700 ))
			ok=1
			for i in $(seq 0 8); do port_free $((base + i)) || { ok=0; break; }; done
			((ok)) && break
			(( ++tries < 50 )) || die "no 9 free ports in a row"
		done
		echo "base=$base" >"$LAB/ports"
	fi
	local base
	base=$(sed -n 's/^base=//p' "$LAB/ports")
	DBPORT=$base CTLDPORT=$((base + 1)) DBDPORT=$((base + 2)) NODEPORT=$((base + 3))
}

start_munge() {
	# a munged of the lab's own, with the host's key (created if none)
	mkdir -p "$LAB/munge" "$LOGS"
	chown munge:munge "$LAB/munge"
	[[ -s /etc/munge/munge.key ]] ||
	    runuser -u munge -- mungekey --create --keyfile=/etc/munge/munge.key
	alive "$LAB/munge/munged.pid" munged && return 0
	runuser -u munge -- /usr/sbin/munged --socket="$MUNGE" \
	    --pid-file="$LAB/munge/munged.pid" --seed-file="$LAB/munge/seed" \
	    --log-file="$LAB/munge/munged.log" --key-file=/etc/munge/munge.key
	keep_pid munged "$LAB/munge/munged.pid"
	wait_for 10 munge sh -c "munge -S '$MUNGE' -n | unmunge -S '$MUNGE'"
}

start_db() {
	mkdir -p "$DB" "$RUN"
	chown mysql:mysql "$DB" "$RUN"
	cat >"$LAB/my.cnf" <<-EOF
	[mysqld]
	user=mysql
	datadir=$DB
	socket=$SOCK
	pid-file=$RUN/mysqld.pid
	bind-address=127.0.0.1
	port=$DBPORT
	log-error=$LAB/mysqld.err
	skip-name-resolve
	innodb_buffer_pool_size=256M
	innodb_lock_wait_timeout=900
	EOF
	[[ -d $DB/mysql ]] || mariadb-install-db --user=mysql --datadir="$DB" \
	    --auth-root-authentication-method=socket --skip-test-db \
	    >"$LAB/install-db.log" 2>&1 || die "mariadb-install-db failed"
	if ! alive "$RUN/mysqld.pid" mariadbd; then
		setsid /usr/sbin/mariadbd --defaults-file="$LAB/my.cnf" \
		    </dev/null >/dev/null 2>&1 &
		wait_for 60 mariadb mariadb --socket="$SOCK" -e 'select 1'
		keep_pid mariadbd "$RUN/mysqld.pid"
	fi
	mariadb --socket="$SOCK" <<-'EOF'
	CREATE USER IF NOT EXISTS 'slurm'@'127.0.0.1' IDENTIFIED BY 'mirage';
	CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY 'mirage';
	GRANT ALL ON mirage_acct_db.* TO 'slurm'@'127.0.0.1';
	GRANT ALL ON mirage_acct_db.* TO 'slurm'@'localhost';
	FLUSH PRIVILEGES;
	EOF
}

configure() {
	mkdir -p "$ETC" "$LAB/ctld" "$LOGS" "$RUN/slurm"
	chown slurm:slurm "$LAB/ctld" "$LOGS" "$RUN/slurm"
	local n
	for n in "${NODES[@]}"; do mkdir -p "$LAB/slurmd/$n"; done
	# the scheduler settings the simulator models: multifactor priority
	# and backfill with slurm.conf's own keys
	cat >"$ETC/slurm.conf" <<-EOF
	# written by mirage tests/slurm/slurm-lab.sh
	ClusterName=$CLUSTER
	SlurmctldHost=localhost
	SlurmctldPort=$CTLDPORT
	SlurmUser=slurm
	AuthType=auth/munge
	AuthInfo=socket=$MUNGE
	StateSaveLocation=$LAB/ctld
	SlurmdSpoolDir=$LAB/slurmd/%n
	SlurmctldPidFile=$RUN/slurm/slurmctld.pid
	SlurmdPidFile=$RUN/slurm/slurmd-%n.pid
	SlurmctldLogFile=$LOGS/slurmctld.log
	SlurmdLogFile=$LOGS/slurmd-%n.log
	ProctrackType=proctrack/linuxproc
	TaskPlugin=task/none
	PrologFlags=Contain
	MpiDefault=none
	MailProg=/bin/true
	ReturnToService=2
	SlurmdParameters=config_overrides
	SchedulerType=sched/backfill
	SchedulerParameters=bf_interval=5,sched_interval=10,bf_resolution=60
	SelectType=select/cons_tres
	SelectTypeParameters=CR_Core
	PriorityType=priority/multifactor
	PriorityCalcPeriod=1
	PriorityWeightAge=1000
	PriorityWeightJobSize=1000
	PriorityMaxAge=1-0
	GresTypes=gpu
	AccountingStorageType=accounting_storage/slurmdbd
	AccountingStoreFlags=job_comment
	AccountingStorageHost=localhost
	AccountingStoragePort=$DBDPORT
	AccountingStoragePass=$MUNGE
	AccountingStorageTRES=gres/gpu
	JobAcctGatherType=jobacct_gather/none
	MinJobAge=300
	MaxJobCount=30000
	KillWait=5
	OverTimeLimit=0
	SlurmdTimeout=30
	NodeName=c[1-${#CPU_NODES[@]}] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[$NODEPORT-$((NODEPORT + ${#CPU_NODES[@]} - 1))] CPUs=4 RealMemory=8000 State=UNKNOWN
	NodeName=g[1-${#GPU_NODES[@]}] NodeHostname=localhost NodeAddr=127.0.0.1 Port=[$((NODEPORT + ${#CPU_NODES[@]}))-$((NODEPORT + ${#NODES[@]} - 1))] CPUs=8 RealMemory=16000 Gres=gpu:a100:2 State=UNKNOWN
	PartitionName=batch Nodes=c[1-${#CPU_NODES[@]}] Default=YES MaxTime=02:00:00 DefaultTime=00:10:00 OverSubscribe=EXCLUSIVE State=UP
	PartitionName=gpu Nodes=g[1-${#GPU_NODES[@]}] MaxTime=1-00:00:00 DefaultTime=00:30:00 OverSubscribe=EXCLUSIVE State=UP
	EOF
	# fake GPUs: File= must name devices; these are never opened
	echo "NodeName=g[1-${#GPU_NODES[@]}] Name=gpu Type=a100 File=/dev/null,/dev/zero" \
	    >"$ETC/gres.conf"
	cat >"$ETC/slurmdbd.conf" <<-EOF
	AuthType=auth/munge
	AuthInfo=socket=$MUNGE
	DbdHost=localhost
	DbdPort=$DBDPORT
	SlurmUser=slurm
	LogFile=$LOGS/slurmdbd.log
	PidFile=$RUN/slurm/slurmdbd.pid
	StorageType=accounting_storage/mysql
	StorageHost=127.0.0.1
	StoragePort=$DBPORT
	StorageUser=slurm
	StoragePass=mirage
	StorageLoc=mirage_acct_db
	EOF
	chown slurm:slurm "$ETC/slurmdbd.conf"
	chmod 600 "$ETC/slurmdbd.conf"
}

dbd_ok() { sacctmgr -n show cluster >/dev/null 2>&1; }
ctld_ok() { scontrol ping 2>/dev/null | grep -q 'is UP'; }
nodes_ok() { ! sinfo -h -N -o %T | grep -q -E 'unk|down|drain|fail|inval|\*'; }

start_slurm() {
	if ! alive "$RUN/slurm/slurmdbd.pid" slurmdbd; then
		/usr/sbin/slurmdbd || die "slurmdbd failed; see $LOGS/slurmdbd.log"
		keep_pid slurmdbd "$RUN/slurm/slurmdbd.pid"
	fi
	wait_for 60 slurmdbd dbd_ok
	sacctmgr -n -P show cluster format=cluster | grep -qx "$CLUSTER" ||
	    sacctmgr -i add cluster "$CLUSTER" >/dev/null
	sacctmgr -n -P show account format=account | grep -qx lab ||
	    sacctmgr -i add account lab Cluster="$CLUSTER" >/dev/null
	sacctmgr -n -P show assoc format=user,account | grep -qx 'root|lab' ||
	    sacctmgr -i add user root Account=lab Cluster="$CLUSTER" >/dev/null
	if ! alive "$RUN/slurm/slurmctld.pid" slurmctld; then
		/usr/sbin/slurmctld 2>/dev/null ||
		    die "slurmctld failed; see $LOGS/slurmctld.log"
		keep_pid slurmctld "$RUN/slurm/slurmctld.pid"
	fi
	wait_for 120 slurmctld ctld_ok
	local n
	for n in "${NODES[@]}"; do
		alive "$RUN/slurm/slurmd-$n.pid" slurmd && continue
		/usr/sbin/slurmd -N "$n" 2>/dev/null ||
		    die "slurmd $n failed; see $LOGS/slurmd-$n.log"
		keep_pid "slurmd-$n" "$RUN/slurm/slurmd-$n.pid"
	done
	sleep 2
	local bad
	bad=$(sinfo -h -N -o '%N %T' | awk '$2 ~ /down|drain|fail|inval/ { print $1 }' |
	    sort -u | paste -sd, -)
	[[ -z $bad ]] || scontrol update NodeName="$bad" State=RESUME || true
	wait_for 60 "nodes" nodes_ok
}

cmd_up() {
	[[ $(id -u) == 0 ]] || die "must run as root"
	mkdir -p "$LAB" "$PIDS"
	install
	pick_ports
	start_munge
	start_db
	configure
	start_slurm
	log "up: $(sinfo -h -o '%P %D %T' | paste -sd';' -)"
}

# A small workload that makes every kind of sacct row: completed, failed,
# timed out and cancelled jobs, an array, a GPU job, several steps, a name
# with the delimiter.  Every job is named with the tag this prints.
cmd_load() {
	local tag
	tag=mg$(date +%s)
	local sb=(sbatch --parsable -D /tmp -o /dev/null)
	"${sb[@]}" -J "${tag}_fill" -N 4 -t 1 --wrap 'sleep 20' >/dev/null
	"${sb[@]}" -J "${tag}_ok" -N 1 -t 2 --wrap 'sleep 3' >/dev/null
	"${sb[@]}" -J "${tag}_wide" -N 2 -t 3 --wrap 'sleep 5' >/dev/null
	"${sb[@]}" -J "${tag}_fail" -N 1 -t 2 --wrap 'exit 3' >/dev/null
	"${sb[@]}" -J "${tag}_steps" -N 1 -t 2 --wrap 'srun true; srun false; true' >/dev/null
	"${sb[@]}" -J "${tag}_timeout" -N 1 -t 1 --wrap 'sleep 300' >/dev/null
	"${sb[@]}" -J "${tag}_array" -N 1 -t 2 --array=1-3 --wrap 'sleep 2' >/dev/null
	"${sb[@]}" -J "${tag}_gpu" -p gpu -N 1 --gres=gpu:1 -t 2 --wrap 'sleep 2' >/dev/null
	"${sb[@]}" -J "${tag}_a|b" -N 1 -t 2 --wrap 'sleep 1' >/dev/null
	local c
	c=$("${sb[@]}" -J "${tag}_cancel" -N 4 -t 5 --begin=now+1hour --wrap 'sleep 1')
	scancel "$c"
	echo "$tag"
}

cmd_wait() {
	local end=$(( $(date +%s) + ${1:-300} ))
	while [[ -n $(squeue -h -o %i) ]]; do
		(( $(date +%s) < end )) || die "jobs still queued after ${1:-300}s"
		sleep 2
	done
	# the accounting of the last jobs reaches slurmdbd a moment later
	sleep 3
}

stop() { # stop NAME...: TERM the daemons we started, wait, then KILL
	local name f pid i
	for name in "$@"; do
		f=$PIDS/$name.pid
		[[ -f $f ]] || continue
		pid=$(<"$f")
		rm -f "$f"
		kill -TERM "$pid" 2>/dev/null || continue
		for i in $(seq 50); do [[ -d /proc/$pid ]] || break; sleep 0.2; done
		kill -KILL "$pid" 2>/dev/null || true
	done
}

cmd_down() {
	local n slurmds=()
	for n in "${NODES[@]}"; do slurmds+=("slurmd-$n"); done
	stop "${slurmds[@]}"
	stop slurmctld slurmdbd mariadbd munged
	log "down"
}

cmd_wipe() {
	cmd_down
	rm -rf "$DB" "$LAB/ctld" "$LAB/slurmd"
}

case ${1:-} in
up) cmd_up ;;
load) cmd_load ;;
wait) cmd_wait "${2:-300}" ;;
down) cmd_down ;;
wipe) cmd_wipe ;;
*) echo "usage: slurm-lab.sh up|load|wait [seconds]|down|wipe" >&2; exit 2 ;;
esac
