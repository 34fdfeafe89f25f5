// ELK layout server for Crafter: one long-lived Node process, JSON lines in, JSON lines out.
//
// Request  (one line): {"id": <any>, "graph": <ELK JSON graph>}
// Response (one line): {"id": <same>, "ms": <wall time>, "cpu_ms": <CPU time>, "nodes": {id: [x, y, w, h]},
//                       "labels": {id: [x, y, w, h]}, "edges": {id: [[x, y], ...]}}
//                   or {"id": <same>, "error": "<message>"}
// The first line written is {"ready": true, "elkjs": "<version>"} (or {"ready": false, ...}
// when elkjs cannot be loaded). Coordinates are absolute: the graph must set
// elk.json.shapeCoords / elk.json.edgeCoords to ROOT. Requests are served one at a time.
//
// Warm-up: V8 needs a few dozen layouts before ELK's code runs fast (the first layouts of
// a 10-node graph cost ~250 ms of CPU, later ones ~20-40 ms). {"id", "warmup": {"graph",
// "count"}} answers {"id", "ok": true} at once and then lays that graph out `count` times
// whenever no request is waiting; {"id", "warmed": true} answers once that is done.
'use strict';

let ELK, version;
try {
  ELK = require('elkjs/lib/elk.bundled.js');
  version = require('elkjs/package.json').version;
} catch (e) {
  process.stdout.write(JSON.stringify({ ready: false, error: String(e && e.message || e) }) + '\n');
  process.exit(3);
}
const elk = new ELK();

function rect(o) {
  return [o.x || 0, o.y || 0, o.width || 0, o.height || 0];
}

function collect(node, out) {
  for (const child of node.children || []) {
    out.nodes[child.id] = rect(child);
    for (const label of child.labels || []) {
      if (label.id !== undefined) out.labels[label.id] = rect(label);
    }
    collect(child, out);
  }
  for (const edge of node.edges || []) {
    const points = [];
    for (const s of edge.sections || []) {
      const run = [s.startPoint].concat(s.bendPoints || [], [s.endPoint]);
      for (const p of run) {
        const last = points[points.length - 1];
        if (!last || last[0] !== p.x || last[1] !== p.y) points.push([p.x, p.y]);
      }
    }
    out.edges[edge.id] = points;
    for (const label of edge.labels || []) {
      if (label.id !== undefined) out.labels[label.id] = rect(label);
    }
  }
}

function write(obj) {
  process.stdout.write(JSON.stringify(obj) + '\n');
}

async function handle(req) {
  const t0 = process.hrtime.bigint();
  const cpu0 = process.cpuUsage();
  try {
    const graph = await elk.layout(req.graph);
    const out = { id: req.id, nodes: {}, labels: {}, edges: {} };
    collect(graph, out);
    out.ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = process.cpuUsage(cpu0);  // CPU time: what the layout costs on an idle machine
    out.cpu_ms = (cpu.user + cpu.system) / 1000;
    write(out);
  } catch (e) {
    write({ id: req.id, error: String(e && e.message || e) });
  }
}

let pending = 0; // requests read but not answered: warm-up waits for them
const warm = { graph: null, left: 0, waiters: [] };

function warmStep() {
  if (pending > 0) return; // picked up again when the requests are answered
  if (warm.left <= 0 || warm.graph === null) {
    warm.waiters.splice(0).forEach((id) => write({ id, warmed: true }));
    return;
  }
  warm.left -= 1;
  elk.layout(JSON.parse(JSON.stringify(warm.graph))).then(
    () => setImmediate(warmStep),
    () => { warm.left = 0; setImmediate(warmStep); },
  );
}

// Warm-up starts only after a short quiet spell, so a one-shot caller (the CLI laying out
// one figure right after start-up) never waits behind a cold warm-up layout.
let warmTimer = null;
function scheduleWarm() {
  if (warmTimer !== null) clearTimeout(warmTimer);
  warmTimer = setTimeout(() => { warmTimer = null; warmStep(); }, 150);
}

async function dispatch(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    write({ id: null, error: 'request is not JSON: ' + e.message });
    return;
  }
  if (req.warmup) {
    warm.graph = req.warmup.graph;
    warm.left = req.warmup.count || 0;
    write({ id: req.id, ok: true });
    return;
  }
  if (req.warmed) {
    warm.waiters.push(req.id);
    if (warm.left <= 0) setImmediate(warmStep); // nothing left to do: answer right away
    return;
  }
  return handle(req);
}

write({ ready: true, elkjs: version });
const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
rl.on('line', (line) => {
  if (!line.trim()) return;
  pending += 1;
  queue = queue.then(() => dispatch(line)).then(() => {
    pending -= 1;
    if (pending === 0) scheduleWarm();
  });
});
rl.on('close', () => queue.then(() => process.exit(0)));
