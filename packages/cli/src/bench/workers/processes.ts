// Real `cadre worker` processes for the worker benchmark: started and ready before the clock
// runs, each reporting on stderr how every wake it took ended (the bench counts those lines,
// so measuring does not poll the database the workers share).
import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

export interface WorkerProcess {
  child: ChildProcess;
  stop(): Promise<void>;
}

export interface Outcome {
  wakeId: string;
  outcome: string;
  line: string;
}

const OUTCOME = /^wake (wake_\w+) \(agent \S+\): (\w+)/;

export function startWorkerProcess(
  command: string[],
  url: string,
  queueSchema: string,
  dataDir: string,
  onOutcome: (o: Outcome) => void,
): Promise<WorkerProcess> {
  const [bin, ...args] = command;
  const child = spawn(
    bin!,
    [...args, "--database", url, "--queue-schema", queueSchema, "--data", dataDir, "--no-scheduler"],
    {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
    },
  );
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const tail: string[] = [];
    createInterface({ input: child.stderr! }).on("line", (line) => {
      tail.push(line);
      if (tail.length > 20) tail.shift();
      if (/ ready: /.test(line)) resolve({ child, stop });
      const m = OUTCOME.exec(line);
      if (m) onOutcome({ wakeId: m[1]!, outcome: m[2]!, line });
    });
    child.once("exit", (code) =>
      reject(new Error(`a bench worker exited (${code}) before it was ready:\n${tail.join("\n")}`)),
    );
  });
}
