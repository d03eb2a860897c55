# Sourced by the scripts that record logs: a throwaway MariaDB with a row-based binlog on a free loopback port.
#   . scripts/lib/throwaway-mariadb.sh
#   start_throwaway_mariadb ROOT [MARIADBD_OPTION...]
# Installs a data directory in ROOT/src and starts mariadbd there (socket ROOT/src.sock, error log ROOT/src.err,
# server id 1, binlog src-bin.NNNNNN in ROOT/src, binlog_format=ROW, then the options given), sets $port, and waits
# until it answers (fails after 2 minutes, naming the error log). On the caller's exit the server is shut down and
# ROOT removed.
start_throwaway_mariadb() {
  local root=$1; shift
  # shellcheck disable=SC2064 # the root is fixed now
  trap "mariadb-admin --no-defaults -uroot -S '$root/src.sock' shutdown >/dev/null 2>&1 || true; rm -rf '$root'" EXIT
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  mariadb-install-db --no-defaults --datadir="$root/src" --user="$(id -un)" --auth-root-authentication-method=normal \
    > "$root/install.log" 2>&1
  setsid mariadbd --no-defaults --datadir="$root/src" --user="$(id -un)" --port="$port" --bind-address=127.0.0.1 \
    --socket="$root/src.sock" --log-error="$root/src.err" --server-id=1 --log-bin=src-bin --binlog-format=ROW \
    "$@" >/dev/null 2>&1 < /dev/null &
  for _ in $(seq 1 240); do
    mariadb --no-defaults -uroot -S "$root/src.sock" -e 'select 1' >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "the throwaway MariaDB did not start; see $root/src.err" >&2
  return 1
}
