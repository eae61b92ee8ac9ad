// Whether a base URL points at this machine (a model server on loopback: a stand-in, a local proxy).

const LOOPBACK_HOSTS = new Set(["localhost", "::1", "[::1]"]);

export function isLoopbackUrl(url: string | undefined): boolean {
  if (url === undefined || url === "") return false;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host);
}
