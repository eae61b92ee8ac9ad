// GET /api/tags as Ollama answers it: the local models by name (`llama3.1:8b`), each with the digest
// of what is pulled under that name. A `pull` can re-point a tag to other weights, and then only the
// digest changes: the server's `digests` option is the list, and `repoint` stands in for a pull.
const MODIFIED = "2025-01-01T00:00:00Z";

export function ollamaTags(digests: Readonly<Record<string, string>>): unknown {
  return {
    models: Object.entries(digests).map(([name, digest]) => ({
      name,
      model: name,
      modified_at: MODIFIED,
      size: 4_920_753_328,
      digest,
      details: { format: "gguf", family: "llama", parameter_size: "8.0B", quantization_level: "Q4_K_M" },
    })),
  };
}
