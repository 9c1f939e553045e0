/** The groups API's params live in the contract (namespaces.groups.create is called over the bus too). */
export * from "@collab/namespaces-contract";
