// HTTP API of the service (docs/service.md): the account's token lives in localStorage and
// travels only in the Authorization header, never in a URL.
const KEY = "poker51-token";

export function token() { return localStorage.getItem(KEY); }

async function call(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const t = token();
  if (t) headers["Authorization"] = "Bearer " + t;
  const r = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  const data = await r.json();
  if (!r.ok) throw new Error(data.detail || data.error);
  return data;
}

export async function ensureAccount() {
  if (token()) {
    try { return await call("GET", "/api/account"); } catch (e) { localStorage.removeItem(KEY); }
  }
  const a = await call("POST", "/api/accounts");
  localStorage.setItem(KEY, a.token);
  return call("GET", "/api/account");
}

export const createRoom = (kind, params = {}) => call("POST", "/api/rooms", { kind, ...params });
export const history = () => call("GET", "/api/history");
export const handLog = (id) => call("GET", "/api/hands/" + encodeURIComponent(id));
