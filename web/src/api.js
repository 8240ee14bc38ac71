// The page's side of docs/API.md: the streamed analysis read with fetch (so that a refusal's
// status and JSON error reach the page, and aborting the fetch tells the server to stop), and
// the proof run's status.

/** A refused request: the HTTP status and the server's message. */
export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function refusal(response) {
  let message = `HTTP ${response.status}`;
  try {
    message = (await response.json()).error || message;
  } catch {
    // Not JSON: keep the status.
  }
  return new ApiError(response.status, message);
}

/**
 * Streams the analysis of `pos` for `seconds`: `onAnalysis(document)` after every step.
 * Resolves with the last document; rejects with an ApiError, or an AbortError when `signal`
 * aborts.
 */
export async function streamAnalysis(pos, seconds, signal, onAnalysis) {
  const query = new URLSearchParams({ pos: pos || "-", time: String(seconds) });
  const response = await fetch(`/api/analyze/stream?${query}`, { signal });
  if (!response.ok) throw await refusal(response);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let last = null;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
      }
      if (event === "analysis") {
        last = JSON.parse(data.join("\n"));
        onAnalysis(last);
      } else if (event === "done") {
        return last;
      }
    }
  }
  return last;
}

/** The proof run's status (`--store`), or null when the server has none. */
export async function proofStatus() {
  const response = await fetch("/api/proof");
  if (response.status === 404) return null;
  if (!response.ok) throw await refusal(response);
  return response.json();
}
