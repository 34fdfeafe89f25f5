// ELK layout server for Crafter: one long-lived Node process, JSON lines in, JSON lines out.
//
// Request  (one line): {"id": <any>, "graph": <ELK JSON graph>}
// Response (one line): {"id": <same>, "ms": <layout time>, "nodes": {id: [x, y, w, h]},
//                       "labels": {id: [x, y, w, h]}, "edges": {id: [[x, y], ...]}}
//                   or {"id": <same>, "error": "<message>"}
// The first line written is {"ready": true, "elkjs": "<version>"} (or {"ready": false, ...}
// when elkjs cannot be loaded). Coordinates are absolute: the graph must set
// elk.json.shapeCoords / elk.json.edgeCoords to ROOT. Requests are served one at a time.
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

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    write({ id: null, error: 'request is not JSON: ' + e.message });
    return;
  }
  const t0 = process.hrtime.bigint();
  try {
    const graph = await elk.layout(req.graph);
    const out = { id: req.id, nodes: {}, labels: {}, edges: {} };
    collect(graph, out);
    out.ms = Number(process.hrtime.bigint() - t0) / 1e6;
    write(out);
  } catch (e) {
    write({ id: req.id, error: String(e && e.message || e) });
  }
}

write({ ready: true, elkjs: version });
const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
let queue = Promise.resolve();
rl.on('line', (line) => {
  if (line.trim()) queue = queue.then(() => handle(line));
});
rl.on('close', () => queue.then(() => process.exit(0)));
