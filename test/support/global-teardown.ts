import { stopTestCluster } from "./test-cluster";

export default stopTestCluster;
