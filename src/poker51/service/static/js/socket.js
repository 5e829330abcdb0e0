// One WebSocket of a room under protocol poker51-service/1: hello first (the token inside),
// commands with a fresh id and the turn of the last frame seen, resync from the last event seq
// after a reconnect.  onFrame(frame) receives every welcome, event, view, answer and error.
import { token } from "./api.js";

export class RoomSocket {
  constructor(roomId, onFrame) {
    this.roomId = roomId; this.onFrame = onFrame;
    this.turn = 0; this.lastSeq = null; this.n = 0; this.open();
  }
  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    this.ws = new WebSocket(`${proto}//${location.host}/ws/${this.roomId}`);
    this.ws.onopen = () => this.raw({ type: "hello", v: 1, token: token(), last_seq: this.lastSeq });
    this.ws.onmessage = (m) => {
      const f = JSON.parse(m.data);
      if (f.turn !== undefined) this.turn = f.turn;
      if (f.seq !== undefined) this.lastSeq = Math.max(this.lastSeq || 0, f.seq);
      this.onFrame(f);
    };
    this.ws.onclose = (e) => { if (e.code !== 4404) setTimeout(() => this.open(), 1500); };
  }
  raw(frame) { this.ws.send(JSON.stringify(frame)); }
  nextId() { this.n += 1; return `${Date.now().toString(36)}-${this.n}`; }
  command(type, fields = {}) { this.raw({ type, id: this.nextId(), turn: this.turn, ...fields }); }
  query(what, fields = {}) { this.raw({ type: "query", id: this.nextId(), what, ...fields }); }
}
