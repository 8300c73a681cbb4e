// A PostgreSQL server of the browser tests' own, for a server on PostgreSQL whose database a
// test stops: Debian's programs (initdb, pg_ctl; run.sh installs them when missing), a
// temporary folder, a free loopback port. As root they run as the `postgres` user, since
// PostgreSQL refuses to run as root.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

// Where the programs are: on the PATH, or in /usr/lib/postgresql/<version>/bin (the newest).
function binDir() {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'pg_ctl')) && fs.existsSync(path.join(dir, 'initdb'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((v) => fs.existsSync(path.join(root, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(a) - Number(b))
    : [];
  if (!versions.length) throw new Error('PostgreSQL\'s programs (initdb, pg_ctl) are neither on the PATH nor in /usr/lib/postgresql: install Debian\'s postgresql (run.sh does)');
  return path.join(root, versions.at(-1), 'bin');
}

const freePort = () => new Promise((resolve, reject) => {
  const probe = net.createServer();
  probe.on('error', reject);
  probe.listen(0, '127.0.0.1', () => {
    const { port } = /** @type {net.AddressInfo} */ (probe.address());
    probe.close(() => resolve(port));
  });
});

// The servers not closed yet: stopped when the tests' process exits, however it does.
const running = new Set();
process.on('exit', () => { for (const pg of running) pg.close(); });

export class TempPg {
  /** A new server, started. */
  static async start() {
    const pg = new TempPg(await freePort());
    running.add(pg);
    if (pg.asPostgres) execFileSync('chown', ['postgres:postgres', pg.dir]);
    pg.run('initdb', ['-D', pg.data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
    pg.begin();
    return pg;
  }

  constructor(port) {
    this.port = port;
    this.bin = binDir();
    this.asPostgres = process.getuid?.() === 0;
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'myrmidon-browser-pg-'));
    this.data = path.join(this.dir, 'data');
  }

  // One of PostgreSQL's programs, run to its end; what it printed.
  run(program, args) {
    const file = path.join(this.bin, program);
    const [cmd, all] = this.asPostgres ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    return execFileSync(cmd, all, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  }

  pgCtl(action, mode = 'fast') {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.run('pg_ctl', ['-D', this.data, '-l', path.join(this.dir, 'log'), '-w', '-t', '60', '-m', mode, '-o', options, action]);
  }

  /** Stops the server: its clients lose their connections, new ones are refused. */
  stop() { this.pgCtl('stop'); }

  /** Starts it (again), on the same port and data. */
  begin() { this.pgCtl('start'); }

  // psql on database `db` (on this server, as `postgres`): the rows of `sql`, unaligned.
  psql(db, sql) {
    const psql = fs.existsSync(path.join(this.bin, 'psql')) ? path.join(this.bin, 'psql') : 'psql';
    return execFileSync(psql, ['-h', '127.0.0.1', '-p', String(this.port), '-U', 'postgres', '-d', db, '-At', '-q', '-c', sql], { encoding: 'utf8' }).trim();
  }

  /** A new, empty database: its URL. @param {string} name */
  database(name) {
    this.psql('postgres', `CREATE DATABASE ${name}`);
    return `postgres://postgres@127.0.0.1:${this.port}/${name}`;
  }

  /** Stopped at once, and its folder removed. */
  close() {
    running.delete(this);
    try { this.pgCtl('stop', 'immediate'); } catch { /* stopped already */ }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
