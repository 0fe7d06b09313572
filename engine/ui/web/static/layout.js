// Where each pile goes in a window of a given size, from the server's plan (layout.py).
// Sizes are in card widths (a card is 1 x 1.4); each pile gets a rectangle of its own, which
// its cards never leave (a long fan is squeezed), so that piles never overlap.
"use strict";

const Layout = (() => {
  const H = 1.4; // a card's height, in card widths
  const GAP = 0.22; // between piles
  const FAN_DOWN = 0.34; // a face-up card's offset in a column: its rank and suit show whole
  const FAN_DOWN_HIDDEN = 0.14; // a face-down card's
  const FAN_SIDE = 0.3; // a covered card's width shown in a sideways fan
  const MAX_SCALE = 130; // pixels per card width, at most

  function overlaps(a, b) {
    return a.x < b.x + b.w + 0.08 && b.x < a.x + a.w + 0.08 && a.y < b.y + b.h + 0.08 && b.y < a.y + a.h + 0.08;
  }

  // A pile's rectangle: { x, y, w, h, fan: 'down' | 'right' | 'none' }
  function rect(x, y, w, h, fan) {
    return { x, y, w, h, fan };
  }

  // --- the rows: a top row, then blocks ----------------------------------------------------

  function sideWidth(role) {
    return role === "waste" ? 1 + 2 * FAN_SIDE : 1;
  }

  // Lays the rows out at (0, 0); `room` is the height a row of columns may take.
  function rows(plan, longest, room) {
    const places = {};
    let y = 0;
    let width = 0;
    const roles = plan.roles;
    const step = 1 + GAP;
    const topLeft = plan.top_left;
    const topRight = plan.top_right;
    let leftWidth = 0;
    for (const name of topLeft) leftWidth += sideWidth(roles[name]) + GAP;
    const rightWidth = topRight.length * step;
    const topWidth = leftWidth + rightWidth + (topLeft.length && topRight.length ? GAP : 0);
    const blocksWidth = Math.max(0, ...plan.blocks.map(blockWidth));
    width = Math.max(topWidth - GAP, blocksWidth);
    if (topLeft.length || topRight.length) {
      let x = 0;
      for (const name of topLeft) {
        const w = sideWidth(roles[name]);
        places[name] = rect(x, y, w, H, roles[name] === "waste" ? "right" : "none");
        x += w + GAP;
      }
      x = width - rightWidth + GAP;
      for (const name of topRight) {
        places[name] = rect(x, y, 1, H, "none");
        x += step;
      }
      y += H + GAP * 1.5;
    }
    for (const block of plan.blocks) {
      y = placeBlock(block, places, y, width, longest, room) + GAP * 1.5;
    }
    return { places, width, height: y - GAP * 1.5 };
  }

  function blockWidth(block) {
    const step = 1 + GAP;
    const n = block.piles.length;
    if (block.kind === "covered") return (Math.max(...block.places.map(([, h]) => h)) * step) / 2 + 1;
    if (block.kind === "grid") return Math.min(n, block.columns || n) * step - GAP;
    return n * step - GAP;
  }

  function placeBlock(block, places, y, width, longest, room) {
    const step = 1 + GAP;
    const piles = block.piles;
    if (block.kind === "columns") {
      const left = (width - (piles.length * step - GAP)) / 2;
      piles.forEach((name, i) => {
        places[name] = rect(left + i * step, y, 1, room, "down");
      });
      return y + room;
    }
    if (block.kind === "covered") {
      // Each pile at its row and its column in half cards, as the server worked them out.
      const left = (width - blockWidth(block)) / 2;
      block.places.forEach(([row, half], k) => {
        places[piles[k]] = rect(left + (half * step) / 2, y + row * (H + GAP), 1, H, "none");
      });
      return y + (1 + Math.max(...block.places.map(([row]) => row))) * (H + GAP) - GAP;
    }
    const per = block.columns || piles.length;
    const rowsOf = [];
    for (let k = 0; k < piles.length; k += per) rowsOf.push(piles.slice(k, k + per).map((_, i) => k + i));
    const widest = Math.max(...rowsOf.map((r) => r.length));
    rowsOf.forEach((row, r) => {
      const left = (width - (widest * step - GAP)) / 2;
      row.forEach((k, c) => {
        places[piles[k]] = rect(left + c * step, y + r * (H + GAP), 1, H, "none");
      });
    });
    return y + rowsOf.length * (H + GAP) - GAP;
  }

  // --- the clock face ---------------------------------------------------------------------

  function clock(plan, sizes) {
    const places = {};
    const roles = plan.roles;
    // The centre's piles side by side, round (0, 0).
    const centre = plan.centre.map((name) => {
      const fan = roles[name] === "waste" ? 2 : roles[name] === "stock" ? 0 : sizes[name] - 1;
      return [name, 1 + FAN_SIDE * Math.max(0, Math.min(fan, 3))];
    });
    const centreWidth = centre.reduce((s, [, w]) => s + w + GAP, -GAP);
    let x = -centreWidth / 2;
    const placed = [];
    for (const [name, w] of centre) {
      places[name] = rect(x, -H / 2, w, H, w > 1 ? "right" : "none");
      placed.push(places[name]);
      x += w + GAP;
    }
    let radius = 0;
    for (const ring of plan.rings) {
      // Each hour's piles side by side: a foundation one card wide, a pile fanned sideways.
      const widths = ring.map((names) => names.map((name) => (roles[name] === "foundation" ? 1 : 1 + FAN_SIDE * Math.max(0, Math.min(sizes[name], 4) - 1))));
      const spans = widths.map((ws) => ws.reduce((s, w) => s + w + GAP, -GAP));
      let r = radius + 0.5;
      for (;; r += 0.05) {
        const here = ring.map((names, hour) => {
          const angle = (hour * Math.PI) / 6;
          const cx = r * Math.sin(angle);
          const cy = -r * Math.cos(angle) * 0.92;
          return rect(cx - spans[hour] / 2, cy - H / 2, Math.max(spans[hour], 0), H, "none");
        });
        const used = here.filter((_, hour) => ring[hour].length);
        const clash = used.some((a, i) => used.some((b, j) => j !== i && overlaps(a, b))) || used.some((a) => placed.some((b) => overlaps(a, b)));
        if (!clash) {
          ring.forEach((names, hour) => {
            let x = here[hour].x;
            names.forEach((name, k) => {
              const w = widths[hour][k];
              places[name] = rect(x, here[hour].y, w, H, w > 1 ? "right" : "none");
              placed.push(places[name]);
              x += w + GAP;
            });
          });
          break;
        }
      }
      radius = r;
    }
    // Moved so that the face's top-left corner is (0, 0).
    const minX = Math.min(...placed.map((p) => p.x));
    const minY = Math.min(...placed.map((p) => p.y));
    const maxX = Math.max(...placed.map((p) => p.x + p.w));
    const maxY = Math.max(...placed.map((p) => p.y + p.h));
    for (const name in places) {
      places[name].x -= minX;
      places[name].y -= minY;
    }
    return { places, width: maxX - minX, height: maxY - minY };
  }

  // --- the whole table --------------------------------------------------------------------

  function hasColumns(plan) {
    return plan.blocks.some((b) => b.kind === "columns");
  }

  // A column's height when fanned in full: the face-down cards closer than the face-up ones.
  function natural(down) {
    let extent = H;
    for (let i = 0; i < down.length - 1; i++) extent += down[i] ? FAN_DOWN_HIDDEN : FAN_DOWN;
    return extent;
  }

  // The table's places in pixels for a window of `width` x `height` pixels; `down` gives, for
  // each pile, whether each of its cards lies face down (columns get room for the longest).
  function table(plan, down, width, height) {
    const sizes = {};
    for (const name in down) sizes[name] = down[name].length;
    const columns = plan.blocks.filter((b) => b.kind === "columns").flatMap((b) => b.piles);
    const room = Math.max(H + FAN_DOWN * 6, ...columns.map((name) => natural(down[name]) + FAN_DOWN));
    const longest = Math.max(1, ...columns.map((name) => sizes[name]));
    const face = plan.clock ? clock(plan, sizes) : null;
    const rest = plan.top_left.length || plan.top_right.length || plan.blocks.length;
    let best = null;
    {
      const part = rest ? rows(plan, longest, room) : { places: {}, width: 0, height: 0 };
      const options = face ? (rest ? ["right", "below"] : ["alone"]) : ["alone"];
      for (const where of options) {
        const tableWidth = where === "right" ? face.width + 2 * GAP + part.width : where === "below" ? Math.max(face.width, part.width) : face ? face.width : part.width;
        const tableHeight = where === "right" ? Math.max(face.height, part.height) : where === "below" ? face.height + 2 * GAP + part.height : face ? face.height : part.height;
        const scale = Math.min(MAX_SCALE, width / (tableWidth + 2 * GAP), height / (tableHeight + 2 * GAP));
        if (!best || scale > best.scale + 0.01) best = { scale, where, room, part, tableWidth, tableHeight };
      }
    }
    const { scale, where, part } = best;
    const places = {};
    const marginX = (width / scale - best.tableWidth) / 2;
    const marginY = GAP;
    let partX = 0;
    let partY = 0;
    if (face) {
      const faceX = where === "below" ? (best.tableWidth - face.width) / 2 : 0;
      const faceY = where === "right" ? Math.max(0, (part.height - face.height) / 2) : 0;
      for (const name in face.places) {
        const p = face.places[name];
        places[name] = rect(p.x + faceX, p.y + faceY, p.w, p.h, p.fan);
      }
      if (where === "right") partX = face.width + 2 * GAP;
      if (where === "below") {
        partY = face.height + 2 * GAP;
        partX = (best.tableWidth - part.width) / 2;
      }
    }
    // Columns stretch down to the window's bottom edge.
    const spare = height / scale - marginY - GAP - (partY + part.height);
    for (const name in part.places) {
      const p = part.places[name];
      const h = p.fan === "down" && spare > 0 ? p.h + spare : p.h;
      places[name] = rect(p.x + partX, p.y + partY, p.w, h, p.fan);
    }
    const pixels = {};
    for (const name in places) {
      const p = places[name];
      pixels[name] = {
        x: (p.x + marginX) * scale,
        y: (p.y + marginY) * scale,
        w: p.w * scale,
        h: p.h * scale,
        fan: p.fan,
      };
    }
    return { scale, places: pixels };
  }

  // Where each card of a pile lies inside its rectangle: [x, y] offsets in pixels.
  function fan(place, down, scale) {
    const n = down.length;
    const out = [];
    if (n === 0) return out;
    const cardW = scale;
    const cardH = scale * H;
    if (place.fan === "none") {
      for (let i = 0; i < n; i++) out.push([0, 0]);
      return out;
    }
    const along = place.fan === "down" ? place.h - cardH : place.w - cardW;
    const first = place.fan === "right" ? Math.max(0, n - 4) : 0; // a sideways fan shows the last 4
    const steps = [];
    for (let i = first; i < n - 1; i++) {
      const base = place.fan === "down" ? (down[i] ? FAN_DOWN_HIDDEN : FAN_DOWN) : FAN_SIDE;
      steps.push(base * scale);
    }
    const total = steps.reduce((s, v) => s + v, 0);
    const squeeze = total > along && total > 0 ? Math.max(0, along) / total : 1;
    let offset = 0;
    for (let i = 0; i < n; i++) {
      out.push(place.fan === "down" ? [0, offset] : [offset, 0]);
      if (i >= first && i < n - 1) offset += steps[i - first] * squeeze;
    }
    return out;
  }

  return { table, fan, H };
})();
