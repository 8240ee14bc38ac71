// The 3-D view: a base, 16 rods, stones that drop into them, the last move ringed, a winning
// line drawn through its stones, each column's digit at its foot and its value above it.
// Orbit with the mouse (rotate, zoom); a click on a rod plays its column. It draws only while
// something moves, so an idle page costs nothing.

import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";
import { cellXYZ, COLUMN_DIGITS } from "./game.js";

const STONE_COLOURS = { X: 0xf4efe2, O: 0x2b2b30 };
const DROP_MS = 260;

/** World position of cell (x, y, z): y = 0 is the row nearest the viewer at first. */
function cellPosition(x, y, z) {
  return new THREE.Vector3(x - 1.5, 0.5 + z, 1.5 - y);
}

/** A sprite showing `text` (a canvas texture), `width` world units wide. */
function textSprite(width) {
  const canvas = document.createElement("canvas");
  canvas.width = 256;
  canvas.height = 128;
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: texture, depthTest: false }));
  sprite.scale.set(width, width / 2, 1);
  sprite.renderOrder = 10;
  sprite.userData = { canvas, texture, text: null };
  return sprite;
}

function setSpriteText(sprite, text, colour, background) {
  const key = `${text}|${colour}|${background}`;
  if (sprite.userData.text === key) return;
  sprite.userData.text = key;
  const { canvas, texture } = sprite.userData;
  const context = canvas.getContext("2d");
  context.clearRect(0, 0, canvas.width, canvas.height);
  if (text) {
    if (background) {
      context.fillStyle = background;
      context.beginPath();
      context.roundRect(8, 20, canvas.width - 16, canvas.height - 40, 24);
      context.fill();
    }
    context.fillStyle = colour;
    context.font = "bold 64px system-ui, sans-serif";
    context.textAlign = "center";
    context.textBaseline = "middle";
    context.fillText(text, canvas.width / 2, canvas.height / 2 + 2);
  }
  texture.needsUpdate = true;
}

export class Board3D {
  /** Builds the scene in `container`; `onColumn(c)` is called when rod `c` is clicked. */
  constructor(container, onColumn) {
    this.container = container;
    this.onColumn = onColumn;
    this.renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    container.appendChild(this.renderer.domElement);

    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xe6ebf0);
    this.camera = new THREE.PerspectiveCamera(36, 1, 0.1, 100);
    this.camera.position.set(7.5, 9, 13);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.target.set(0, 1.9, 0);
    this.controls.enableDamping = false;
    this.controls.minDistance = 6;
    this.controls.maxDistance = 25;
    this.controls.maxPolarAngle = Math.PI * 0.49;
    this.controls.addEventListener("change", () => this.requestRender());

    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a8f99, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.8);
    sun.position.set(4, 10, 6);
    this.scene.add(sun);

    const base = new THREE.Mesh(
      new THREE.BoxGeometry(4.6, 0.3, 4.6),
      new THREE.MeshStandardMaterial({ color: 0xa0714a, roughness: 0.7 }),
    );
    base.position.y = -0.15;
    this.scene.add(base);

    this.rods = [];
    this.hitTargets = [];
    this.digitSprites = [];
    this.valueSprites = [];
    const rodGeometry = new THREE.CylinderGeometry(0.06, 0.06, 4.3, 12);
    const hitGeometry = new THREE.CylinderGeometry(0.45, 0.45, 4.6, 8);
    const hitMaterial = new THREE.MeshBasicMaterial({ visible: false });
    for (let c = 0; c < 16; c++) {
      const { x, y } = cellXYZ(c);
      const foot = cellPosition(x, y, 0);
      const rod = new THREE.Mesh(
        rodGeometry,
        new THREE.MeshStandardMaterial({ color: 0x6b4a30, roughness: 0.6 }),
      );
      rod.position.set(foot.x, 2.15, foot.z);
      this.scene.add(rod);
      this.rods.push(rod);
      const hit = new THREE.Mesh(hitGeometry, hitMaterial);
      hit.position.set(foot.x, 2.3, foot.z);
      hit.userData.column = c;
      this.scene.add(hit);
      this.hitTargets.push(hit);
      const digit = textSprite(0.55);
      digit.position.set(foot.x + 0.32, 0.12, foot.z + 0.32);
      setSpriteText(digit, COLUMN_DIGITS[c], "#3b2a1a", null);
      this.scene.add(digit);
      this.digitSprites.push(digit);
      const value = textSprite(0.62);
      value.position.set(foot.x, 4.7, foot.z);
      this.scene.add(value);
      this.valueSprites.push(value);
    }

    this.stoneGeometry = new THREE.SphereGeometry(0.33, 28, 18);
    this.stoneMaterials = {
      X: new THREE.MeshStandardMaterial({ color: STONE_COLOURS.X, roughness: 0.35 }),
      O: new THREE.MeshStandardMaterial({ color: STONE_COLOURS.O, roughness: 0.35 }),
    };
    this.winMaterials = {
      X: new THREE.MeshStandardMaterial({ color: 0xffd54a, emissive: 0x6a4a00, roughness: 0.3 }),
      O: new THREE.MeshStandardMaterial({ color: 0xd4a017, emissive: 0x4a3000, roughness: 0.3 }),
    };
    this.stones = new Map(); // cell -> mesh
    this.drops = []; // { mesh, from, to, start }
    this.lastMarker = new THREE.Mesh(
      new THREE.TorusGeometry(0.39, 0.05, 10, 32),
      new THREE.MeshBasicMaterial({ color: 0xe0442e }),
    );
    this.lastMarker.rotation.x = Math.PI / 2;
    this.lastMarker.visible = false;
    this.scene.add(this.lastMarker);
    this.winLine = null;

    this.raycaster = new THREE.Raycaster();
    this.pointer = new THREE.Vector2();
    this.hovered = -1;
    this.downAt = null;
    const canvas = this.renderer.domElement;
    canvas.addEventListener("pointerdown", (event) => {
      this.downAt = [event.clientX, event.clientY];
    });
    canvas.addEventListener("pointerup", (event) => {
      // A click, not the end of a drag that rotated the view.
      if (!this.downAt) return;
      const moved = Math.hypot(event.clientX - this.downAt[0], event.clientY - this.downAt[1]);
      this.downAt = null;
      if (moved > 5) return;
      const column = this.columnAt(event);
      if (column >= 0) this.onColumn(column);
    });
    canvas.addEventListener("pointermove", (event) => this.hover(this.columnAt(event)));
    canvas.addEventListener("pointerleave", () => this.hover(-1));

    this.pending = false;
    new ResizeObserver(() => this.resize()).observe(container);
    this.resize();
  }

  columnAt(event) {
    const rect = this.renderer.domElement.getBoundingClientRect();
    this.pointer.set(
      ((event.clientX - rect.left) / rect.width) * 2 - 1,
      -((event.clientY - rect.top) / rect.height) * 2 + 1,
    );
    this.raycaster.setFromCamera(this.pointer, this.camera);
    const hits = this.raycaster.intersectObjects(this.hitTargets, false);
    return hits.length ? hits[0].object.userData.column : -1;
  }

  hover(column) {
    if (column === this.hovered) return;
    if (this.hovered >= 0) this.rods[this.hovered].material.color.set(0x6b4a30);
    this.hovered = column;
    if (column >= 0) this.rods[column].material.color.set(0x2f7de1);
    this.renderer.domElement.style.cursor = column >= 0 ? "pointer" : "grab";
    this.requestRender();
  }

  resize() {
    const width = Math.max(this.container.clientWidth, 1);
    const height = Math.max(this.container.clientHeight, 1);
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  /**
   * Shows `game`: stones added since the last call drop in (when `animate`), stones no longer
   * there vanish (undo), the last move is ringed and a winning line is drawn.
   */
  show(game, animate) {
    for (const [cell, mesh] of this.stones) {
      if (game.cells[cell] === null) {
        this.scene.remove(mesh);
        this.stones.delete(cell);
      }
    }
    const now = performance.now();
    for (let cell = 0; cell < 64; cell++) {
      const stone = game.cells[cell];
      if (stone === null) continue;
      const existing = this.stones.get(cell);
      if (existing && existing.userData.stone === stone) continue;
      if (existing) this.scene.remove(existing);
      const { x, y, z } = cellXYZ(cell);
      const to = cellPosition(x, y, z);
      const mesh = new THREE.Mesh(this.stoneGeometry, this.stoneMaterials[stone]);
      mesh.userData.stone = stone;
      mesh.position.copy(to);
      if (animate) {
        const from = to.clone();
        from.y = 4.9;
        mesh.position.copy(from);
        this.drops.push({ mesh, from, to, start: now });
      }
      this.scene.add(mesh);
      this.stones.set(cell, mesh);
    }
    for (const [cell, mesh] of this.stones) {
      const inLine = game.winningLine && game.winningLine.includes(cell);
      mesh.material = (inLine ? this.winMaterials : this.stoneMaterials)[mesh.userData.stone];
    }
    const last = game.lastCell();
    this.lastMarker.visible = last >= 0;
    if (last >= 0) {
      const { x, y, z } = cellXYZ(last);
      this.lastMarker.position.copy(cellPosition(x, y, z));
    }
    if (this.winLine) {
      this.scene.remove(this.winLine);
      this.winLine = null;
    }
    if (game.winningLine) {
      const ends = [game.winningLine[0], game.winningLine[3]].map((cell) => {
        const { x, y, z } = cellXYZ(cell);
        return cellPosition(x, y, z);
      });
      const direction = ends[1].clone().sub(ends[0]);
      const length = direction.length() + 0.9;
      const bar = new THREE.Mesh(
        new THREE.CylinderGeometry(0.07, 0.07, length, 12),
        new THREE.MeshBasicMaterial({ color: 0xe0442e }),
      );
      bar.position.copy(ends[0].clone().add(ends[1]).multiplyScalar(0.5));
      bar.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), direction.normalize());
      this.winLine = bar;
      this.scene.add(bar);
    }
    this.container.dataset.stones = String(this.stones.size);
    this.requestRender();
  }

  /** Shows each column's value label: `labels[c]` is { text, colour, background } or null. */
  showValues(labels) {
    for (let c = 0; c < 16; c++) {
      const label = labels[c];
      const sprite = this.valueSprites[c];
      sprite.visible = Boolean(label);
      if (label) setSpriteText(sprite, label.text, label.colour, label.background);
    }
    this.requestRender();
  }

  /**
   * Where the top of rod `column` is on the page (client pixels): the browser test clicks
   * there, through the same ray cast as a person's click.
   */
  screenPoint(column) {
    const { x, y } = cellXYZ(column);
    const point = cellPosition(x, y, 0);
    point.y = 4.5;
    point.project(this.camera);
    const rect = this.renderer.domElement.getBoundingClientRect();
    return {
      x: rect.left + ((point.x + 1) / 2) * rect.width,
      y: rect.top + ((1 - point.y) / 2) * rect.height,
    };
  }

  requestRender() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => this.frame());
  }

  frame() {
    this.pending = false;
    const now = performance.now();
    this.drops = this.drops.filter((drop) => {
      const t = Math.min((now - drop.start) / DROP_MS, 1);
      // Falling with gravity: distance grows with the square of time.
      drop.mesh.position.lerpVectors(drop.from, drop.to, t * t);
      return t < 1;
    });
    this.renderer.render(this.scene, this.camera);
    if (this.drops.length) this.requestRender();
  }
}
