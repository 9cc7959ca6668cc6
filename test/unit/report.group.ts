import { runGroup } from "../support/groups";

runGroup(__filename);
