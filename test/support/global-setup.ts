import { startTestCluster } from "./test-cluster";

export default startTestCluster;
