// Entry point: mounts the dashboard.
import { render } from "preact";
import { App } from "./app.js";
import { takeTokenFromLocation } from "./session/token.js";
import "./styles.css";

render(<App linkToken={takeTokenFromLocation()} />, document.getElementById("app") as HTMLElement);
